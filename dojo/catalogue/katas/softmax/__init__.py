"""The kata softmax: what the tool teaches with (see kata.toml)."""
