"""The kata grouped_query_attention: what the tool teaches with (see kata.toml)."""
