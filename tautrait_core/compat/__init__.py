"""Everything upstream: hashing, task and result files, imports and exports."""
