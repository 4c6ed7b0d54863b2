"""The kata kv_cache_attention: its judge's self-check (wrong/, right/) and tool test."""
