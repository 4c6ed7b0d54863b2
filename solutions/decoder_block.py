import numpy as np


def decoder_block(x, norm1, w_q, w_k, w_v, w_o, norm2, w_gate, w_up, w_down, num_heads,
                  past_k=None, past_v=None):
    """One pre-norm LLaMA-style decoder block (no RoPE, no biases) with a KV cache.

    Contract
    --------
    x              : array-like (n, d_model): the n newest tokens, n, d_model >= 1.
    norm1, norm2   : array-like (d_model,): the RMSNorm weights.
    w_q, w_k, w_v  : array-like (d_model, h * d_head); w_o: (h * d_head, d_model).
    w_gate, w_up   : array-like (d_model, d_ff); w_down: (d_ff, d_model); h * d_head, d_ff >= 1.
    num_heads      : h, an int >= 1 (a Python int, or a NumPy integer of 32 or 64 bits;
                     never bool or float) that divides w_q's width.
    past_k, past_v : both None, or both array-like (h, p, d_head), p >= 0 (p = 0: an empty
                     cache). Everything is computed in float64.

    rms(a, w) = a / sqrt(mean(a^2 over the row) + 1e-6) * w   (eps fixed at 1e-6, inside the sqrt)

    xn = rms(x, norm1); q, k, v = xn w_q, xn w_k, xn w_v, each split into heads by column blocks
    (columns j*d_head .. (j+1)*d_head - 1 are head j) -> (h, n, d_head).
    new_k = concat(past_k, k) along the sequence axis -> (h, m, d_head), m = p + n; new_v alike
    (the cache is extended before attention: the new tokens see each other and themselves).

    Head j: softmax(q_j new_k_j^T / sqrt(d_head)) new_v_j, causal aligned bottom-right: query i
    (at position p + i) may see key t iff t <= p + i. attn = the heads concatenated (column
    blocks, head 0 first) @ w_o.
    h1 = x + attn;  hn = rms(h1, norm2);  out = h1 + (silu(hn w_gate) * (hn w_up)) w_down,
    silu(z) = z / (1 + exp(-z)).

    Returns ``(out, new_k, new_v)``: out (n, d_model), new_k and new_v (h, p + n, d_head), all
    float64 arrays. No input is modified.

    Raises ValueError (a subclass is fine), with a message a person can act on, when:
    - x is not 2-D or has a zero dimension;
    - any weight is not exactly of its shape above (no broadcasting), or h * d_head or d_ff is 0;
    - num_heads is not an int >= 1, or does not divide w_q's width;
    - only one of past_k / past_v is given; a past is not 3-D, has another head count or
      d_head, or the two have different lengths;
    - any input contains NaN or inf;
    - an allowed score q k^T / sqrt(d_head) overflows (is not finite);
    - out is not finite.

    Left open (never tested): a blocked (future) score that overflows; a dot product of a query
    and a key that overflows although the score, divided by sqrt(d_head), is finite; an out that
    is finite only when computed in another order of products.

    NumPy only: do not import torch, jax, tensorflow, scipy or sklearn.

    Speed: the judge makes a few hundred calls on small inputs. Together they may take 1 s of
    CPU per Hypothesis example (20 s in a practice run; the reference needs under 0.5 s), and
    one call at most 2 s of CPU; past that the answer is stopped as too slow. Loops over
    rows, heads or blocks are fine; a Python loop over single entries is not.
    """
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
        xn = _rms(x, norm1)                                   # (n, d_model)
        q = _heads(xn @ w_q, h)                               # (h, n, d_head)
        k = _heads(xn @ w_k, h)
        v = _heads(xn @ w_v, h)
        new_k = k if past_k is None else np.concatenate([past_k, k], axis=1)  # (h, m, d_head)
        new_v = v if past_v is None else np.concatenate([past_v, v], axis=1)
        p = new_k.shape[1] - n
        m = p + n
        scores = q @ new_k.transpose(0, 2, 1) / np.sqrt(d_head)   # (h, n, m)
        allowed = np.arange(m)[None, :] <= p + np.arange(n)[:, None]  # (n, m), bottom-right
        if not np.isfinite(scores[:, allowed]).all():
            raise ValueError("an allowed attention score q k^T / sqrt(d_head) overflows (is not finite): "
                             "the projections are too large")
        scores = np.where(allowed, scores, -np.inf)
        scores = scores - scores.max(axis=-1, keepdims=True)  # each row's max: key p + i at least
        weights = np.exp(scores)
        weights /= weights.sum(axis=-1, keepdims=True)
        heads = weights @ new_v                               # (h, n, d_head)
        attn = heads.transpose(1, 0, 2).reshape(n, width) @ w_o  # (n, d_model)
        h1 = x + attn
        hn = _rms(h1, norm2)
        gate = hn @ w_gate                                    # (n, d_ff)
        silu = gate / (1.0 + np.exp(-gate))
        out = h1 + (silu * (hn @ w_up)) @ w_down
    if not np.isfinite(out).all():
        raise ValueError("out is not finite: the block's activations overflow float64")
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
