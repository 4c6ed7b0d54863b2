"""The kata moe_layer: what the tool teaches with (see kata.toml)."""
