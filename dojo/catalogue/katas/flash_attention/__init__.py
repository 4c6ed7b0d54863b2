"""The kata flash_attention: what the tool teaches with (see kata.toml)."""
