"""The kata latent_attention: what the tool teaches with (see kata.toml)."""
