"""The kata causal_self_attention: its judge's self-check (wrong/, right/) and tool test."""
