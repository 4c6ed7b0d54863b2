"""The kata relu: what the tool teaches with (see kata.toml)."""
