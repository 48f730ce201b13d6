"""Model calls: the client, the direct path to OpenAI-compatible servers (aiohttp), litellm's
path for the rest (``provider.py``, the only importer of litellm), retries, the response
cache, API keys, usage."""
