"""The kata half_precision_attention: what the tool teaches with (see kata.toml)."""
