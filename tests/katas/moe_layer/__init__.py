"""The kata moe_layer: its judge's self-check (wrong/, right/), its written-out contract and its demonstrations' claims."""
