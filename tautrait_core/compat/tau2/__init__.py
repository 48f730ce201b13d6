"""τ²-bench compatibility: its tool-output serialisation, database hashes and tools."""
