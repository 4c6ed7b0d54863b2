"""The kata multihead_attention: what the tool teaches with (see kata.toml)."""
