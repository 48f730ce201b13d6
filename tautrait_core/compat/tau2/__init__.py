"""τ²-bench compatibility: its tool-output serialisation, database hash, tools, task files,
reward breakdown and results files."""
