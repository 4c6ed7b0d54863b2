"""The kata sliding_window_attention: what the tool teaches with (see kata.toml)."""
