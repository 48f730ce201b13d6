"""Runs of many episodes: preparation, the runner, executors (local, Ray), sweeps, play."""
