import numpy as np


def sliding_window_attention(q, k, v, window, num_sinks=0):
    """Causal attention with a sliding window and attention sinks (StreamingLLM), against a cache.

        query i sits at position p_i = m - n + i (the n queries are the newest of the m tokens)
        key j is allowed for query i  iff  j <= p_i  and  (p_i - j < window  or  j < num_sinks)
        weights = softmax(q kᵀ / sqrt(d_k))   over the key axis, blocked keys set to -inf first
        out     = weights v

    ``window`` counts the query's own position: window = 1 sees only the query's own key (plus
    the sinks), window = 3 its own and the two before it. The sinks are the first ``num_sinks``
    keys, kept whatever the distance; a sink after the query's position (j > p_i) stays blocked,
    like every future key. The causal part is aligned to the bottom-right corner, torch's
    ``causal_lower_right(n, m)``. Every query sees at least its own key, so no row is empty.

    Contract
    --------
    q : (n, d_k) queries of the n newest tokens      every dimension >= 1, array-like,
    k : (m, d_k) keys of all m tokens so far          computed in float64; m >= n
    v : (m, d_v) values of all m tokens so far
    window : int >= 1 (a Python or NumPy integer; bool and float are rejected); may exceed m
    num_sinks : int >= 0 (same types); may exceed m: then every past key is a sink
    (a window or num_sinks above 2**63 - 1 is outside the contract)

    Returns out, a float64 array of shape (n, d_v). No input is modified.

    Raises ValueError (a subclass is fine), with a message a person can act on, when:
    - q, k or v is not 2-D, or has a zero dimension;
    - q and k have different widths, or k and v different numbers of rows;
    - the cache is shorter than the new tokens (m < n);
    - q, k or v contains NaN or inf (anywhere, even in a key no query sees);
    - window is not an int >= 1, or num_sinks not an int >= 0 (a bool or a float is not an int);
    - a score that takes part in the softmax (an allowed one) overflows to inf.
    (What happens when only a blocked score overflows is left open. Out of contract: |v| so
    large that a weighted sum overflows before it is divided by the row's sum.)

    Left open: a dot product of a query and a key that overflows although the score, divided
    by sqrt(d_k), is finite (where another order of the products gives a finite answer).
    Left open too: an allowed score whose exact value overflows to -inf (below -1.8e308).

    NumPy only: do not import torch, jax, tensorflow, scipy or sklearn.

    Speed: the judge makes a few hundred calls on small inputs. Together they may take 1 s of
    CPU per Hypothesis example (20 s in a practice run; the reference needs under 0.5 s), and
    one call at most 2 s of CPU; past that the answer is stopped as too slow. Loops over
    rows, heads or blocks are fine; a Python loop over single entries is not.
    """
    for name, value, least in (("window", window, 1), ("num_sinks", num_sinks, 0)):
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
            raise ValueError(f"{name} must be an int (not a bool or a float), got {value!r}")
        if value < least:
            raise ValueError(f"{name} must be at least {least}, got {value}")
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    for name, a in (("q", q), ("k", k), ("v", v)):
        if a.ndim != 2 or 0 in a.shape:
            raise ValueError(f"{name} must be 2-D with no empty dimension, got shape {a.shape}")
        if not np.isfinite(a).all():
            raise ValueError(f"{name} contains NaN or inf")
    n, d_k = q.shape
    m, d_v = v.shape
    if k.shape[1] != d_k:
        raise ValueError(f"q and k must have the same width d_k, got {d_k} and {k.shape[1]}")
    if k.shape[0] != m:
        raise ValueError(f"k and v must have the same number of rows, got {k.shape[0]} and {m}")
    if m < n:
        raise ValueError(f"the cache holds m = {m} tokens, fewer than the n = {n} new ones")

    # Only the sinks and the keys inside some query's window can be seen: gather just those,
    # so a decoding step costs O(window + num_sinks), not O(m).
    window, num_sinks = int(window), int(num_sinks)
    first = max(0, m - n - window + 1)  # the oldest key in query 0's window
    cols = np.concatenate([np.arange(min(num_sinks, first)), np.arange(first, m)])  # (c,)
    p = (m - n + np.arange(n))[:, None]  # (n, 1) positions of the queries
    allowed = (cols <= p) & ((p - cols < window) | (cols < num_sinks))  # (n, c)
    with np.errstate(over="ignore", invalid="ignore"):
        scores = q @ k[cols].T / np.sqrt(d_k)  # (n, c)
    if not np.isfinite(scores[allowed]).all():
        raise ValueError("an allowed score q·k/sqrt(d_k) overflowed; rescale q or k")
    scores = np.where(allowed, scores, -np.inf)  # blocked logits are -inf, not a finite fill
    weights = np.exp(scores - scores.max(axis=1, keepdims=True))  # (n, c)
    weights /= weights.sum(axis=1, keepdims=True)
    return weights @ v[cols]  # (n, d_v)
