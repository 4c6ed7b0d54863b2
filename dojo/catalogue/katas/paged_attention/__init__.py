"""The kata paged_attention: what the tool teaches with (see kata.toml)."""
