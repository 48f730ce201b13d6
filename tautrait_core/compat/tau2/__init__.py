"""τ²-bench compatibility: its tool-output serialisation, database hash, tools, records of
its retail and airline databases, task files, reward breakdown and results files."""
