"""Domains: tools, task sets, the episode database, the reward and task checks."""
