"""The kata alibi_attention: its judge's self-check (wrong/, right/) and tool test."""
