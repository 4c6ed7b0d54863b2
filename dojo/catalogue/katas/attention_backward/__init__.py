"""The kata attention_backward: what the tool teaches with (see kata.toml)."""
