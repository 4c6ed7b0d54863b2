"""The kata half_precision_attention: its judge's self-check (wrong/, right/) and tool test."""
