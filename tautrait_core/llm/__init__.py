"""The model layer, the only place that imports litellm: client, retries, cache, keys, usage."""
