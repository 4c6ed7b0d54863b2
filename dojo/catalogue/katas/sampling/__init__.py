"""The kata sampling: what the tool teaches with (see kata.toml)."""
