"""The kata layer_norm_backward: what the tool teaches with (see kata.toml)."""
