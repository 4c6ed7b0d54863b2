"""The kata speculative_decoding: its judge's self-check (wrong/, right/), its written-out contract and its demonstrations' claims."""
