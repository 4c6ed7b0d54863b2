"""FlashAttention-1 style: the output is kept normalised after every block, o = (l_old·c·o + p v) / l_new."""
import numpy as np


def flash_attention(q, k, v, block_size, causal=False):
    if not isinstance(block_size, (int, np.integer)) or isinstance(block_size, (bool, np.bool_)):
        raise ValueError("block_size must be an int")
    if block_size < 1:
        raise ValueError("block_size must be at least 1")
    q = np.asarray(q, dtype=np.float64)
    k = np.asarray(k, dtype=np.float64)
    v = np.asarray(v, dtype=np.float64)
    for a in (q, k, v):
        if a.ndim != 2 or a.shape[0] == 0 or a.shape[1] == 0:
            raise ValueError("inputs must be 2-D and non-empty")
        if np.isnan(a).any() or np.isinf(a).any():
            raise ValueError("inputs must be finite")
    n, d = q.shape
    m = k.shape[0]
    if k.shape[1] != d:
        raise ValueError("q and k widths differ")
    if v.shape[0] != m:
        raise ValueError("k and v lengths differ")
    if causal and n > m:
        raise ValueError("causal with more queries than keys")
    scale = 1.0 / np.sqrt(d)
    o = np.zeros((n, v.shape[1]))
    l = np.zeros((n, 1))
    mx = np.full((n, 1), -np.inf)
    for start in range(0, m, block_size):
        stop = min(start + block_size, m)
        with np.errstate(over="ignore", invalid="ignore"):
            s = np.einsum("nd,bd->nb", q, k[start:stop]) * scale
        if causal:
            future = np.arange(start, stop)[None, :] > (np.arange(n) + m - n)[:, None]
            if not np.isfinite(s[~future]).all():
                raise ValueError("a score overflowed")
            s[future] = -np.inf
        elif not np.isfinite(s).all():
            raise ValueError("a score overflowed")
        m_new = np.maximum(mx, s.max(axis=1, keepdims=True))
        c = np.exp(mx - m_new)
        p = np.exp(s - m_new)
        l_new = c * l + p.sum(axis=1, keepdims=True)
        o = (l * c * o + p @ v[start:stop]) / l_new
        l, mx = l_new, m_new
    return o, mx[:, 0] + np.log(l[:, 0])
