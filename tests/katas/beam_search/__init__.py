"""The kata beam_search: its judge's self-check (wrong/, right/), its written-out contract and its demonstrations' claims."""
