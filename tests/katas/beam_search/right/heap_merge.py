"""A heap-based scorer: heapq.merge of each beam's sorted candidates gives the rank lazily, and a min-heap keeps only the best B hypotheses (HF's BeamHypotheses)."""
import heapq

import numpy as np


def beam_search(log_probs, start, eos, beam_width, max_len, length_penalty=0.0):
    lp = np.asarray(log_probs, dtype=np.float64)
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
    # Per beam, its candidates in rank order (a stable sort of its row, the first B + 1 suffice);
    # heapq.merge of those lists by (-score, beam, token) yields the step's global rank lazily.
    # Finished hypotheses live in a min-heap of the best B, worst on top: (final, -step, -rank).
    beams = [((), 0.0, int(start))]
    best_b, counter = [], 0

    def keep(final, step, rank, tokens):
        nonlocal counter
        counter += 1
        heapq.heappush(best_b, (final, -step, -rank, counter, list(tokens)))
        if len(best_b) > B:
            heapq.heappop(best_b)

    for t in range(1, max_len + 1):
        ranked = []
        for b, (_, raw, last) in enumerate(beams):
            row = raw + lp[last]
            ranked.append([(-float(row[v]), b, int(v)) for v in np.argsort(-row, kind="stable")[: B + 1]])
        live = []
        for rank, (neg, b, v) in enumerate(heapq.merge(*ranked)):
            if v == eos:
                if rank < B:
                    keep(-neg / t ** alpha, t, rank, beams[b][0] + (v,))
                continue
            live.append((beams[b][0] + (v,), -neg, v, rank))
            if len(live) == B:
                break
        if t == max_len:
            for tokens, raw, _, rank in live:
                keep(raw / t ** alpha, t, rank, tokens)
        beams = [(tokens, raw, v) for tokens, raw, v, _ in live]
        if not beams:
            break
    ordered = sorted(best_b, key=lambda h: (-h[0], -h[1], -h[2]))
    return [h[4] for h in ordered], np.array([h[0] for h in ordered], dtype=np.float64)


def _is_int(v) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def _is_real(v) -> bool:
    return isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, (bool, np.bool_))
