"""A realistic bug that passed every property (stop 53's blind hostile round): it divides by int64 lengths ** length_penalty: a length_penalty of the int -1 (a finite real, valid)
raises "Integers to negative integer powers". The judge drew only float or non-negative int penalties.
The draw is there now; this file keeps it caught."""
KATA = "beam_search"
ROUTE = "dojo test"  # a wrong value: the same properties whichever route runs them
EXPECT = "raised ValueError on a valid input"  # what the verdict must say

import numbers

import numpy as np


def _is_int(x):
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def beam_search(log_probs, start, eos, beam_width, max_len, length_penalty=0.0):
    lp = np.array(log_probs, dtype=np.float64)
    if lp.ndim != 2 or lp.shape[0] != lp.shape[1] or lp.size == 0:
        raise ValueError(f"log_probs must be a non-empty square (V, V) array, got shape {lp.shape}")
    if not np.isfinite(lp).all():
        raise ValueError("log_probs contains NaN or inf")
    if (lp > 0).any():
        raise ValueError("log_probs has a positive entry")
    V = lp.shape[0]
    for name, t in (("start", start), ("eos", eos)):
        if not _is_int(t) or not 0 <= t < V:
            raise ValueError(f"{name} must be an int in [0, {V}), got {t!r}")
    for name, t in (("beam_width", beam_width), ("max_len", max_len)):
        if not _is_int(t) or t < 1:
            raise ValueError(f"{name} must be an int >= 1, got {t!r}")
    if isinstance(length_penalty, (bool, np.bool_)) or not isinstance(length_penalty, (numbers.Real, np.integer, np.floating)) \
            or not np.isfinite(float(length_penalty)):
        raise ValueError(f"length_penalty must be a finite real, got {length_penalty!r}")
    B, eos, max_len = int(beam_width), int(eos), int(max_len)
    live_tokens = [()]
    live_raw = np.zeros(1)
    live_last = np.array([int(start)])
    pool_raw, pool_len, pool_rank, pool_tokens = [], [], [], []
    for t in range(1, max_len + 1):
        if not live_tokens:
            break
        flat = (live_raw[:, None] + lp[live_last]).ravel()
        order = np.argsort(-flat, kind="stable")
        new_tokens, new_raw, new_last, new_rank = [], [], [], []
        for rank, c in enumerate(order):
            beam, tok = divmod(int(c), V)
            if tok == eos:
                if rank < B:
                    pool_raw.append(flat[c]); pool_len.append(t); pool_rank.append(rank)
                    pool_tokens.append(list(live_tokens[beam]) + [tok])
                continue
            new_tokens.append(live_tokens[beam] + (tok,))
            new_raw.append(flat[c]); new_last.append(tok); new_rank.append(rank)
            if len(new_tokens) == B:
                break
        live_tokens, live_raw, live_last = new_tokens, np.array(new_raw), np.array(new_last, dtype=np.intp)
        if t == max_len:
            for tokens, raw, rank in zip(new_tokens, new_raw, new_rank):
                pool_raw.append(raw); pool_len.append(t); pool_rank.append(rank); pool_tokens.append(list(tokens))
    raws = np.array(pool_raw, dtype=np.float64)
    lengths = np.array(pool_len, dtype=np.int64)
    finals = raws / lengths ** length_penalty   # the bug: int64 ** negative int raises
    ranks = np.array(pool_rank, dtype=np.int64)
    best = np.lexsort((ranks, lengths, -finals))[:B]
    return [pool_tokens[i] for i in best], finals[best].astype(np.float64)
