"""The kata linear_attention: what the tool teaches with (see kata.toml)."""
