"""The live beams are chosen after masking EOS candidates with -1e9: with a log-probability below
that (any finite one is valid) an EOS candidate becomes a live beam. The drawn log-probabilities
stayed above about -30 (a blind round, stop 58); an example has -1e300."""
KATA = "beam_search"
ROUTE = "dojo test"
EXPECT = "is wrong"  # what the verdict must say

import numpy as np


def beam_search(log_probs, start, eos, beam_width, max_len, length_penalty=0.0):
    lp = np.asarray(log_probs, dtype=np.float64)
    if lp.ndim != 2 or lp.shape[0] != lp.shape[1] or lp.size == 0:
        raise ValueError(f"log_probs must be a non-empty square 2-D array (V, V), got shape {lp.shape}")
    V = lp.shape[0]
    if not np.isfinite(lp).all():
        raise ValueError("log_probs contains NaN, inf or -inf; every log-prob must be finite "
                         "(use a large negative number for an impossible transition)")
    if (lp > 0).any():
        raise ValueError(f"log_probs has a positive entry ({lp.max()!r}); log-probabilities are <= 0")
    for name, value in (("start", start), ("eos", eos)):
        if not (_is_int(value) and 0 <= value < V):
            raise ValueError(f"{name} must be an int in [0, {V}), got {value!r}")
    for name, value in (("beam_width", beam_width), ("max_len", max_len)):
        if not (_is_int(value) and value >= 1):
            raise ValueError(f"{name} must be an int >= 1, got {value!r}")
    if not (_is_real(length_penalty) and np.isfinite(length_penalty)):
        raise ValueError(f"length_penalty must be a finite real, got {length_penalty!r}")
    B, eos, alpha = int(beam_width), int(eos), float(length_penalty)

    seqs = [[]]                       # the live beams' tokens, in live order
    raw = np.zeros(1)                 # their raw scores
    last = np.array([int(start)])     # their last tokens
    pool = []                         # (final score, step, rank, tokens) of every hypothesis
    for t in range(1, int(max_len) + 1):
        cand = raw[:, None] + lp[last]                 # (live, V): left-to-right sums
        flat = cand.ravel()
        order = np.argsort(-flat, kind="stable")       # ties: earlier beam, then lower token
        tokens = order % V
        is_eos = tokens == eos
        for rank in np.flatnonzero(is_eos[:B]):        # an EOS candidate finishes iff rank < B
            i = order[rank]
            pool.append((flat[i] / t ** alpha, t, int(rank), seqs[i // V] + [eos]))
        # the live beams: the best B candidates once EOS ones are masked out
        masked = np.where(np.arange(flat.size) % V == eos, -1e9, flat)
        n_live = min(B, int(np.count_nonzero(~is_eos)))
        chosen = np.argsort(-masked, kind="stable")[:n_live]
        where = np.empty_like(order); where[order] = np.arange(order.size)
        keep = where[chosen]                           # their ranks in the step
        seqs = [seqs[i // V] + [int(i % V)] for i in chosen]
        raw, last = flat[chosen], chosen % V
        if t == max_len:
            for rank, i, s in zip(keep, chosen, seqs):
                pool.append((flat[i] / t ** alpha, t, int(rank), s))
        if not seqs:
            break
    pool.sort(key=lambda h: (-h[0], h[1], h[2]))
    best = pool[:B]
    return [h[3] for h in best], np.array([h[0] for h in best], dtype=np.float64)


def _is_int(v) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def _is_real(v) -> bool:
    return isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, (bool, np.bool_))
