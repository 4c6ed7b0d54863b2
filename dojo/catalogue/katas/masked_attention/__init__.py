"""The kata masked_attention: what the tool teaches with (see kata.toml)."""
