"""The kata grouped_query_attention: its judge's self-check (wrong/, right/) and tool test."""
