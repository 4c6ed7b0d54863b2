"""The kata kv_cache_attention: what the tool teaches with (see kata.toml)."""
