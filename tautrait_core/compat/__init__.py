"""Everything upstream: hashing, records as rows, data files, task and result files, imports
and exports."""
