"""Files exchanged with upstream benchmarks: importing τ-Trait and τ²-bench checkouts,
reading and writing result lists and τ² results files, importing results into the
results database, and training data exports. Above the plugin registry (it looks up
domains by name), below runs."""
