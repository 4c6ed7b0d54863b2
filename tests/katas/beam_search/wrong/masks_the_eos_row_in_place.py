"""Overwrites the EOS row of log_probs in place (np.asarray does not copy the caller's float64 array), so the caller's log_probs change."""
import numpy as np


def beam_search(log_probs, start, eos, beam_width, max_len, length_penalty=0.0):
    lp = np.asarray(log_probs, dtype=np.float64)  # no copy for a float64 array
    if lp.ndim != 2 or lp.shape[0] != lp.shape[1] or lp.size == 0:
        raise ValueError(f"log_probs must be a non-empty square (V, V) array, got shape {lp.shape}")
    V = lp.shape[0]
    if not np.isfinite(lp).all():
        raise ValueError("log_probs must be finite (no NaN, inf or -inf)")
    if (lp > 0).any():
        raise ValueError("log_probs must be <= 0")
    for name, value in (("start", start), ("eos", eos)):
        if not (_is_int(value) and 0 <= value < V):
            raise ValueError(f"{name} must be an int in [0, {V}), got {value!r}")
    for name, value in (("beam_width", beam_width), ("max_len", max_len)):
        if not (_is_int(value) and value >= 1):
            raise ValueError(f"{name} must be an int >= 1, got {value!r}")
    if not (_is_real(length_penalty) and np.isfinite(length_penalty)):
        raise ValueError(f"length_penalty must be a finite real, got {length_penalty!r}")
    B, eos, alpha, max_len = int(beam_width), int(eos), float(length_penalty), int(max_len)
    if eos != start:
        lp[eos] = lp.min() - 1.0  # nothing follows EOS (the caller's array changes)
    seqs, raw, last, pool = [[]], np.zeros(1), np.array([int(start)]), []
    for t in range(1, max_len + 1):
        flat = (raw[:, None] + lp[last]).ravel()
        order = np.argsort(-flat, kind="stable")
        is_eos = order % V == eos
        for rank in np.flatnonzero(is_eos[:B]):
            i = order[rank]
            pool.append((flat[i] / t ** alpha, t, int(rank), seqs[i // V] + [eos]))
        keep = np.flatnonzero(~is_eos)[:B]
        chosen = order[keep]
        seqs = [seqs[i // V] + [int(i % V)] for i in chosen]
        raw, last = flat[chosen], chosen % V
        if t == max_len:
            pool += [(flat[i] / t ** alpha, t, int(r), s) for r, i, s in zip(keep, chosen, seqs)]
        if not seqs:
            break
    pool.sort(key=lambda h: (-h[0], h[1], h[2]))
    best = pool[:B]
    return [h[3] for h in best], np.array([h[0] for h in best], dtype=np.float64)


def _is_int(v) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def _is_real(v) -> bool:
    return isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, (bool, np.bool_))
