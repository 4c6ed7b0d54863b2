"""Vectorised: np.lexsort((token, beam, -score)) ranks a step, masks and a cumsum pick the finished and live candidates, np.lexsort((rank, step, -final)) orders the hypotheses."""
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
    # Everything as arrays: the live tokens (live, t), a lexsort rank, masks for the selection.
    tokens = np.zeros((1, 0), dtype=np.int64)
    raw, last = np.zeros(1), np.array([int(start)])
    finals, steps, ranks, found = [], [], [], []
    for t in range(1, max_len + 1):
        flat = (raw[:, None] + lp[last]).ravel()
        beam, token = np.divmod(np.arange(flat.size), V)
        order = np.lexsort((token, beam, -flat))           # raw descending, then beam, then token
        is_eos = token[order] == eos
        position = np.arange(order.size)
        done = is_eos & (position < B)
        live = ~is_eos & (np.cumsum(~is_eos) <= B)
        seqs = np.concatenate([tokens[beam[order]], token[order][:, None]], axis=1)
        pick = done | (live & (t == max_len))
        finals.append(flat[order][pick] / float(t) ** alpha)
        steps.append(np.full(pick.sum(), t))
        ranks.append(position[pick])
        found += [list(map(int, s)) for s in seqs[pick]]
        tokens, raw, last = seqs[live], flat[order][live], token[order][live]
        if not live.any():
            break
    finals, steps, ranks = np.concatenate(finals), np.concatenate(steps), np.concatenate(ranks)
    best = np.lexsort((ranks, steps, -finals))[:B]
    return [found[i] for i in best], finals[best].astype(np.float64)


def _is_int(v) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def _is_real(v) -> bool:
    return isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, (bool, np.bool_))
