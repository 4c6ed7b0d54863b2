"""The kata rope: what the tool teaches with (see kata.toml)."""
