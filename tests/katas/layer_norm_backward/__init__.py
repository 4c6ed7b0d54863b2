"""The kata layer_norm_backward: its judge's self-check (wrong/, right/), its written-out contract and its demonstrations' claims."""
