"""The demonstrations behind the follow-ups of batched attention with padding:
the waste of padding."""

from __future__ import annotations

import numpy as np

from dojo.catalogue.demos import Shown, demo
from dojo.text.messages import t


def say(key: str, **params) -> str:
    """A line of these demonstrations in the tool's language: ``kata.batched_attention.demo.<key>``
    (dojo/catalogue/katas/batched_attention/<lang>/kata.toml); numbers come in formatted."""
    return t("kata.batched_attention.demo." + key, **params)


@demo("padding_waste")
def padding_waste() -> Shown:
    rng = np.random.default_rng(8)
    lengths = np.sort(rng.integers(64, 2049, size=16))  # a batch of 16 mixed lengths
    padded_tokens = len(lengths) * lengths.max()
    padded_pairs = len(lengths) * lengths.max() ** 2  # attention scores computed with padding
    packed_pairs = int((lengths.astype(np.int64) ** 2).sum())  # varlen: each sequence on its own
    lines = [
        say("padding-batch", count=len(lengths), shortest=int(lengths.min()), longest=int(lengths.max())),
        say("padding-tokens", real=int(lengths.sum()), padded=int(padded_tokens),
            share=f"{1 - lengths.sum() / padded_tokens:.0%}"),
        say("padding-scores", needed=f"{packed_pairs:.2e}", computed=f"{padded_pairs:.2e}",
            share=f"{1 - packed_pairs / padded_pairs:.0%}"),
    ]
    return Shown(lines, {"lengths": lengths.tolist(), "padded_pairs": int(padded_pairs),
                         "packed_pairs": packed_pairs, "padded_tokens": int(padded_tokens)})
