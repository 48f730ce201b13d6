"""τ²-bench compatibility: its tool-output serialisation, database hash, task files,
reward breakdown and results files."""
