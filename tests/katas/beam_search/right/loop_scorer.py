"""A plain loop scorer: each beam's best B + 1 tokens as Python tuples, sorted by (-score, beam, token), walked once; hypotheses sorted by (-final, step, rank)."""
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
    # Each beam's first B + 1 tokens (a stable sort of its row) hold every candidate that can
    # matter: after them the beam has B live ones ranked before anything further down.
    beams = [([], 0.0, int(start))]           # (tokens, raw score, last token), in live order
    hypotheses = []                           # (final, step, rank, tokens)
    for t in range(1, max_len + 1):
        candidates = []
        for b, (tokens, raw, last) in enumerate(beams):
            row = raw + lp[last]
            for v in np.argsort(-row, kind="stable")[: B + 1]:
                candidates.append((float(row[v]), b, int(v)))
        candidates.sort(key=lambda c: (-c[0], c[1], c[2]))
        live = []
        for rank, (score, b, v) in enumerate(candidates):
            if v == eos:
                if rank < B:
                    hypotheses.append((score / t ** alpha, t, rank, beams[b][0] + [v]))
                continue
            live.append((beams[b][0] + [v], score, v, rank))
            if len(live) == B:
                break
        if t == max_len:
            for tokens, score, _, rank in live:
                hypotheses.append((score / t ** alpha, t, rank, tokens))
        beams = [(tokens, score, v) for tokens, score, v, _ in live]
        if not beams:
            break
    hypotheses.sort(key=lambda h: (-h[0], h[1], h[2]))
    best = hypotheses[:B]
    return [h[3] for h in best], np.array([h[0] for h in best], dtype=np.float64)


def _is_int(v) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def _is_real(v) -> bool:
    return isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, (bool, np.bool_))
