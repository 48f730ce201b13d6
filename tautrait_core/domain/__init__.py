"""Domains: tools and their execution, task sets, the episode database and its initial state."""
