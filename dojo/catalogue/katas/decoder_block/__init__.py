"""The kata decoder_block: what the tool teaches with (see kata.toml)."""
