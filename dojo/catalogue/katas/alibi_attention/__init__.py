"""The kata alibi_attention: what the tool teaches with (see kata.toml)."""
