"""The kata speculative_decoding: its catalogue entry, battery, demonstrations and words."""
