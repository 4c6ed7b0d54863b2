"""The kata attention_backward: its judge's self-check (wrong/, right/) and tool test."""
