"""One query head at a time: head h slices its own Q columns and the K, V columns of kv head h // g."""
import numpy as np


def grouped_query_attention(x, w_q, w_k, w_v, w_o, num_heads, num_kv_heads, causal=False):
    for name, value in (("num_heads", num_heads), ("num_kv_heads", num_kv_heads)):
        if type(value) is bool or not isinstance(value, (int, np.integer)):
            raise ValueError(f"{name} must be an int")
        if value <= 0:
            raise ValueError(f"{name} must be positive")
    if num_heads % num_kv_heads != 0:
        raise ValueError("num_heads must be a multiple of num_kv_heads")
    arrays = [np.array(a, dtype=np.float64) for a in (x, w_q, w_k, w_v, w_o)]
    for a in arrays:
        if a.ndim != 2 or a.size == 0:
            raise ValueError("inputs must be non-empty 2-D arrays")
        if not np.all(np.isfinite(a)):
            raise ValueError("inputs must be finite")
    x, w_q, w_k, w_v, w_o = arrays
    n, d_model = x.shape
    if any(w.shape[0] != d_model for w in (w_q, w_k, w_v)):
        raise ValueError("projection rows must equal d_model")
    if w_q.shape[1] % num_heads or w_k.shape[1] % num_kv_heads or w_v.shape[1] % num_kv_heads:
        raise ValueError("widths must split evenly into heads")
    d_k = w_q.shape[1] // num_heads
    d_v = w_v.shape[1] // num_kv_heads
    if w_k.shape[1] // num_kv_heads != d_k:
        raise ValueError("q and k heads must have the same width")
    if w_o.shape != (num_heads * d_v, w_o.shape[1]):
        raise ValueError("w_o must have num_heads * d_v rows")
    g = num_heads // num_kv_heads
    with np.errstate(over="ignore", invalid="ignore"):
        Q, K, V = x @ w_q, x @ w_k, x @ w_v
    weights = np.zeros((num_heads, n, n))
    outs = []
    for h in range(num_heads):
        c = h // g  # the kv head this query head shares
        q = Q[:, h * d_k : (h + 1) * d_k]
        k = K[:, c * d_k : (c + 1) * d_k]
        with np.errstate(over="ignore", invalid="ignore"):
            s = q @ k.T / np.sqrt(d_k)
        for i in range(n):
            allowed = s[i, : i + 1] if causal else s[i]
            if not np.all(np.isfinite(allowed)):
                raise ValueError("score overflow")
            e = np.exp(allowed - allowed.max())
            weights[h, i, : len(e)] = e / e.sum()
        outs.append(weights[h] @ V[:, c * d_v : (c + 1) * d_v])
    return np.hstack(outs) @ w_o, weights
