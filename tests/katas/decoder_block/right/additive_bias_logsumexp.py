"""An additive -inf bias built from indices, weights normalised by the row sum, a sign-split sigmoid
(the weights were exp(s - logsumexp(s)) until stop 56: equal scores of -1.2e24 each got weight 1)."""
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
        def norm(a, w):
            return a / np.sqrt(np.square(a).sum(-1, keepdims=True) / a.shape[-1] + 1e-6) * w

        xn = norm(x, norm1)
        split = lambda a: a.reshape(n, h, d_head).swapaxes(0, 1)  # noqa: E731
        q, k, v = split(xn @ w_q), split(xn @ w_k), split(xn @ w_v)
        new_k = k if past_k is None else np.concatenate((past_k, k), axis=1)
        new_v = v if past_v is None else np.concatenate((past_v, v), axis=1)
        m = new_k.shape[1]
        p = m - n
        rows, cols = np.indices((n, m))
        bias = np.where(cols - rows <= p, 0.0, -np.inf)        # additive -inf bias, bottom-right
        raw = np.matmul(q, new_k.swapaxes(1, 2)) / np.sqrt(d_head)
        if not np.isfinite(raw[:, bias == 0]).all():
            raise ValueError("an allowed score overflows")
        s = raw + bias
        e = np.exp(s - s.max(axis=-1, keepdims=True))
        heads = np.matmul(e / e.sum(axis=-1, keepdims=True), new_v)
        h1 = x + heads.swapaxes(0, 1).reshape(n, h * d_head) @ w_o
        hn = norm(h1, norm2)
        g = hn @ w_gate
        sig = np.where(g >= 0, 1 / (1 + np.exp(-np.abs(g))), np.exp(-np.abs(g)) / (1 + np.exp(-np.abs(g))))
        out = h1 + (g * sig * (hn @ w_up)) @ w_down
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
