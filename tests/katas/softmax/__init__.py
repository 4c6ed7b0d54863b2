"""The kata softmax: its judge's self-check (wrong/, right/) and tool test."""
