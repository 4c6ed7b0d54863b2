"""The kata rope: its judge's self-check (wrong/, right/) and tool test."""
