"""The kata sliding_window_attention: its judge's self-check (wrong/, right/) and tool test."""
