"""The demonstrations behind the follow-ups of batched attention with padding:
the waste of padding."""

from __future__ import annotations

import numpy as np

from dojo.demos import Shown, demo


@demo("padding_waste")
def padding_waste() -> Shown:
    rng = np.random.default_rng(8)
    lengths = np.sort(rng.integers(64, 2049, size=16))  # a batch of 16 mixed lengths
    padded_tokens = len(lengths) * lengths.max()
    padded_pairs = len(lengths) * lengths.max() ** 2  # attention scores computed with padding
    packed_pairs = int((lengths.astype(np.int64) ** 2).sum())  # varlen: each sequence on its own
    lines = [
        f"16 sequences, lengths {lengths.min()}..{lengths.max()} (seeded draw), padded to {lengths.max()}:",
        f"  tokens: {lengths.sum()} real of {padded_tokens} ({1 - lengths.sum() / padded_tokens:.0%} padding)",
        f"  attention scores: {packed_pairs:.2e} needed, {padded_pairs:.2e} computed "
        f"({1 - packed_pairs / padded_pairs:.0%} wasted)",
    ]
    return Shown(lines, {"lengths": lengths.tolist(), "padded_pairs": int(padded_pairs),
                         "packed_pairs": packed_pairs, "padded_tokens": int(padded_tokens)})
