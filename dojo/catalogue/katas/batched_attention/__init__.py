"""The kata batched_attention: what the tool teaches with (see kata.toml)."""
