"""The kata relu: its judge's self-check (wrong/, right/) and its written-out contract."""
