"""Retrieval configurations: how an agent searches a domain's documents (τ³)."""
