"""n_drop = V - top_k, then the last n_drop tokens dropped: with top_k an np.uint64 above V the
subtraction wraps around and all but one token go. top_k came only as int, np.int64 and np.int32
(a blind round, stop 58); unsigned and narrow types are drawn now, and an example has
np.uint64(4) over 3 tokens."""
KATA = "sampling"
ROUTE = "dojo test"
EXPECT = "is wrong"  # what the verdict must say

import numpy as np


def sample_token(logits, u, temperature=1.0, top_k=None, top_p=None):
    logits = np.asarray(logits, dtype=np.float64)
    if logits.ndim != 2 or 0 in logits.shape:
        raise ValueError(f"logits must be 2-D (b, V) with b, V >= 1, got shape {logits.shape}")
    b, V = logits.shape
    u = np.asarray(u, dtype=np.float64)
    if u.shape != (b,):
        raise ValueError(f"u must have shape ({b},): one uniform per row of logits, got shape {u.shape}")
    if not np.isfinite(logits).all():
        raise ValueError("logits contains NaN or inf; every logit must be finite")
    if not np.isfinite(u).all():
        raise ValueError("u contains NaN or inf; each u must be a number in [0, 1)")
    if ((u < 0) | (u >= 1)).any():
        raise ValueError(f"every u must lie in [0, 1), got {u[(u < 0) | (u >= 1)][0]}")
    if not _is_real(temperature) or not np.isfinite(temperature) or temperature < 0:
        raise ValueError(f"temperature must be a finite real >= 0 (0 means greedy), got {temperature!r}")
    if top_k is not None and not (_is_int(top_k) and top_k >= 1):
        raise ValueError(f"top_k must be None or an int >= 1 (None disables it, not 0), got {top_k!r}")
    if top_p is not None and not (_is_real(top_p) and 0 < top_p <= 1):
        raise ValueError(f"top_p must be None or a real in (0, 1], got {top_p!r}")

    rows = np.arange(b)
    probs = np.zeros((b, V))  # (b, V)
    if temperature == 0:
        # greedy: np.argmax returns the first maximum, i.e. the lower index among ties
        probs[rows, np.argmax(logits, axis=1)] = 1.0
    else:
        with np.errstate(over="ignore"):
            z = logits / float(temperature)  # (b, V)
        if not np.isfinite(z).all():
            raise ValueError(f"logits / temperature overflows (temperature {temperature!r} is too small "
                             "for these logits)")
        # The rank: a stable sort of -z keeps tied tokens in index order (lower index first).
        order = np.argsort(-z, axis=1, kind="stable")  # (b, V), token ids in rank order
        zs = np.take_along_axis(z, order, axis=1)      # (b, V), z in rank order, descending
        keep = np.ones((b, V), dtype=bool)             # (b, V), in rank order
        if top_k is not None:
            n_drop = V - top_k                         # how many of the rank's tail top_k drops
            if n_drop > 0:
                keep[:, -n_drop:] = False              # exactly top_k, ties or not
        if top_p is not None and top_p < 1:
            w = np.where(keep, np.exp(zs - zs[:, :1]), 0.0)  # zs[:, 0] is each row's max
            w /= w.sum(axis=1, keepdims=True)                # softmax over the tokens top_k kept
            before = np.cumsum(w, axis=1) - w                # the mass ranked before each token
            keep &= before < top_p                           # the token reaching top_p stays
        p = np.where(keep, np.exp(zs - zs[:, :1]), 0.0)      # max-shifted: the first is exp(0) = 1
        p /= p.sum(axis=1, keepdims=True)
        probs[rows[:, None], order] = p                      # back to token-index order

    # Inverse CDF in token-index order: the smallest t with u < C_t is the count of C_t <= u.
    cdf = np.cumsum(probs, axis=1)
    cdf /= cdf[:, -1:]
    tokens = np.minimum((cdf <= u[:, None]).sum(axis=1), V - 1)
    return tokens.astype(np.int64), probs


def _is_int(v) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def _is_real(v) -> bool:
    return isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, (bool, np.bool_))
