"""The kata causal_self_attention: what the tool teaches with (see kata.toml)."""
