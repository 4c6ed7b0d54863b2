"""Loops over heads and queries: each query's softmax over its visible prefix of the cache; sigmoid via tanh."""
import numpy as np


def decoder_block(x, norm1, w_q, w_k, w_v, w_o, norm2, w_gate, w_up, w_down, num_heads,
                  past_k=None, past_v=None):
    if not _is_int(num_heads) or num_heads < 1:
        raise ValueError(f"num_heads must be an int >= 1 (never a bool or float), got {num_heads!r}")
    h = int(num_heads)
    x = _matrix(x, "x")
    n, d_model = x.shape
    if 0 in x.shape:
        raise ValueError(f"x must be (n, d_model) with n, d_model >= 1, got shape {x.shape}")
    w_q = _matrix(w_q, "w_q")
    width = w_q.shape[1]
    if width == 0:
        raise ValueError(f"w_q has width 0: h * d_head must be >= 1, got shape {w_q.shape}")
    if width % h:
        raise ValueError(f"num_heads = {h} does not divide w_q's width {width} (= h * d_head)")
    d_head = width // h
    w_gate = _matrix(w_gate, "w_gate")
    d_ff = w_gate.shape[1]
    if d_ff == 0:
        raise ValueError(f"w_gate has width 0: d_ff must be >= 1, got shape {w_gate.shape}")
    norm1 = _shaped(norm1, "norm1", (d_model,))
    norm2 = _shaped(norm2, "norm2", (d_model,))
    w_q = _shaped(w_q, "w_q", (d_model, width))
    w_k = _shaped(w_k, "w_k", (d_model, width))
    w_v = _shaped(w_v, "w_v", (d_model, width))
    w_o = _shaped(w_o, "w_o", (width, d_model))
    w_gate = _shaped(w_gate, "w_gate", (d_model, d_ff))
    w_up = _shaped(w_up, "w_up", (d_model, d_ff))
    w_down = _shaped(w_down, "w_down", (d_ff, d_model))
    if (past_k is None) != (past_v is None):
        raise ValueError("past_k and past_v go together: pass both (h, p, d_head) arrays, or neither")
    if past_k is not None:
        past_k = np.asarray(past_k, dtype=np.float64)
        past_v = np.asarray(past_v, dtype=np.float64)
        for name, past in (("past_k", past_k), ("past_v", past_v)):
            if past.ndim != 3 or past.shape[0] != h or past.shape[2] != d_head:
                raise ValueError(f"{name} must have shape (h, p, d_head) = ({h}, p, {d_head}), "
                                 f"got {past.shape}")
        if past_k.shape[1] != past_v.shape[1]:
            raise ValueError(f"past_k holds {past_k.shape[1]} tokens but past_v {past_v.shape[1]}: "
                             "the cache's keys and values must have the same length")
    named = dict(x=x, norm1=norm1, w_q=w_q, w_k=w_k, w_v=w_v, w_o=w_o, norm2=norm2, w_gate=w_gate,
                 w_up=w_up, w_down=w_down, past_k=past_k, past_v=past_v)
    for name, a in named.items():
        if a is not None and not np.isfinite(a).all():
            raise ValueError(f"{name} contains NaN or inf; every input must be finite")

    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        xn = np.empty_like(x)
        for i in range(n):  # RMSNorm row by row
            xn[i] = x[i] / np.sqrt(np.dot(x[i], x[i]) / d_model + 1e-6) * norm1
        Q, K, V = xn @ w_q, xn @ w_k, xn @ w_v
        p = 0 if past_k is None else past_k.shape[1]
        ks, vs, outs = [], [], []
        for j in range(h):  # one head at a time
            cols = slice(j * d_head, (j + 1) * d_head)
            k_j, v_j = K[:, cols], V[:, cols]
            if past_k is not None:
                k_j = np.vstack([past_k[j], k_j])
                v_j = np.vstack([past_v[j], v_j])
            ks.append(k_j)
            vs.append(v_j)
            o_j = np.empty((n, d_head))
            for i in range(n):  # query i sees keys 0 .. p + i
                s = k_j[: p + i + 1] @ Q[i, cols] / np.sqrt(d_head)
                if not np.isfinite(s).all():
                    raise ValueError(f"head {j}: an allowed score of query {i} overflows (is not finite)")
                e = np.exp(s - s.max())
                o_j[i] = (e / e.sum()) @ v_j[: p + i + 1]
            outs.append(o_j)
        new_k, new_v = np.stack(ks), np.stack(vs)
        h1 = x + np.hstack(outs) @ w_o
        hn = h1 / np.sqrt((h1 ** 2).mean(axis=1, keepdims=True) + 1e-6) * norm2
        g = hn @ w_gate
        out = h1 + ((g * (0.5 + 0.5 * np.tanh(g / 2))) * (hn @ w_up)) @ w_down  # sigmoid via tanh
    if not np.isfinite(out).all():
        raise ValueError("out is not finite")
    return out, new_k, new_v


def _rms(a, w):
    """RMSNorm of each row of a, eps 1e-6 inside the square root, times w."""
    return a / np.sqrt(np.mean(a * a, axis=-1, keepdims=True) + 1e-6) * w


def _heads(a, h):
    """(n, h * d_head) -> (h, n, d_head): head j is the j-th block of d_head columns."""
    n = a.shape[0]
    return a.reshape(n, h, -1).transpose(1, 0, 2)


def _matrix(a, name):
    a = np.asarray(a, dtype=np.float64)
    if a.ndim != 2:
        raise ValueError(f"{name} must be 2-D, got shape {a.shape}")
    return a


def _shaped(a, name, shape):
    a = np.asarray(a, dtype=np.float64)
    if a.shape != shape:
        raise ValueError(f"{name} must have shape {shape} exactly (no broadcasting), got {a.shape}")
    return a


def _is_int(v) -> bool:
    """A Python or NumPy integer, never bool."""
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))
