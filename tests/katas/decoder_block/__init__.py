"""The kata decoder_block: its judge's self-check (wrong/, right/), its written-out contract and its demonstrations' claims."""
