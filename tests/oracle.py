"""The independent oracle: PyTorch, float64, CPU.

Nothing here re-implements the katas in NumPy; every expected value comes from torch.

``import torch`` costs about 2 s, more than a whole practice run should take. So, outside CI,
answers are memoised on disk (``.dojo/cache/``), keyed by the exact bytes of the inputs, the
torch version and this file's own source. The practice profile is deterministic, so a second
run asks torch nothing and never imports it. Under CI (``CI`` set) or with
``DOJO_ORACLE_CACHE=0`` every answer is computed live.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import os
import pickle
from pathlib import Path

import numpy as np

_ROOT = Path(__file__).resolve().parent.parent
_CACHE_DIR = Path(os.environ.get("DOJO_STATE_DIR", _ROOT / ".dojo")) / "cache"
_ENABLED = not os.environ.get("CI") and os.environ.get("DOJO_ORACLE_CACHE", "1") != "0"

_torch = None
_memo: dict[str, tuple] | None = None
_dirty = False
live_calls = 0  # how many answers torch computed in this process (read by the self-check)


def torch():
    """The torch module, imported on first need, in float64 on one thread."""
    global _torch
    if _torch is None:
        import torch as t

        t.set_num_threads(1)
        _torch = t
    return _torch


def _cache_file() -> Path:
    own = hashlib.sha1(Path(__file__).read_bytes()).hexdigest()[:10]
    try:
        version = importlib.metadata.version("torch")
    except importlib.metadata.PackageNotFoundError:
        version = "none"
    return _CACHE_DIR / f"oracle-torch{version}-{own}.pkl"


def _load() -> dict:
    global _memo
    if _memo is None:
        _memo = {}
        if _ENABLED:
            try:
                with open(_cache_file(), "rb") as f:
                    _memo = pickle.load(f)
            except Exception:  # missing or unreadable: start afresh
                _memo = {}
    return _memo


def flush():
    """Write new answers to disk atomically (called once at the end of a pytest session)."""
    global _dirty
    if not (_ENABLED and _dirty and _memo is not None):
        return
    path = _cache_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    merged = dict(_memo)
    try:  # another run may have written answers since this one started: keep them too
        with open(path, "rb") as f:
            merged = {**pickle.load(f), **_memo}
    except Exception:
        pass
    tmp = path.with_suffix(f".tmp{os.getpid()}")
    with open(tmp, "wb") as f:
        pickle.dump(merged, f, protocol=pickle.HIGHEST_PROTOCOL)
    os.replace(tmp, path)
    _dirty = False


def _key(name: str, arrays: tuple, params: tuple) -> str:
    h = hashlib.sha1(name.encode())
    for a in arrays:
        if a is None:
            h.update(b"none")
        else:
            a = np.ascontiguousarray(a)
            h.update(f"{a.dtype.str}{a.shape}".encode())
            h.update(a.tobytes())
    h.update(repr(params).encode())
    return h.hexdigest()


def memoised(compute):
    """Make ``compute(*arrays, **params) -> tuple of arrays`` an oracle whose answers are kept.

    Any kata's judge can define its own torch oracle with this (in its test module); the key
    covers the function's own source, so editing an oracle never reuses its old answers.
    """
    import inspect

    own = hashlib.sha1(inspect.getsource(compute).encode()).hexdigest()[:12]
    name = f"{compute.__module__}.{compute.__qualname__}:{own}"

    def wrapper(*arrays, **params):
        global _dirty, live_calls
        memo = _load()
        key = _key(name, arrays, tuple(sorted(params.items())))
        if key not in memo:
            memo[key] = tuple(np.array(r, dtype=np.float64) for r in compute(*arrays, **params))
            live_calls += 1
            _dirty = True
        result = tuple(r.copy() for r in memo[key])
        return result if len(result) > 1 else result[0]

    wrapper.__name__ = compute.__name__
    wrapper.__doc__ = compute.__doc__
    return wrapper


def tensor(a):
    return torch().from_numpy(np.array(a, dtype=np.float64))


@memoised
def softmax(x, *, axis):
    """torch.softmax over ``axis``."""
    return (torch().softmax(tensor(x), dim=axis).numpy(),)


def _weights(q, k, allowed):
    """Attention weights the torch way: matmul, scale, masked_fill(-inf), torch.softmax."""
    t = torch()
    scores = q @ k.transpose(-2, -1) / float(q.shape[-1]) ** 0.5
    if allowed is not None:
        scores = scores.masked_fill(~allowed, float("-inf"))
    return t.softmax(scores, dim=-1)


@memoised
def attention(q, k, v, mask):
    """(out, weights): out from F.scaled_dot_product_attention, weights from torch ops."""
    t = torch()
    q, k, v = tensor(q), tensor(k), tensor(v)
    allowed = None if mask is None else t.from_numpy(np.asarray(mask, dtype=bool))
    out = t.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=allowed)
    return out.numpy(), _weights(q, k, allowed).numpy()


@memoised
def causal_self_attention(x, w_q, w_k, w_v):
    """(out, weights) with is_causal=True in SDPA (top-left aligned, n == m here)."""
    t = torch()
    x = tensor(x)
    q, k, v = x @ tensor(w_q), x @ tensor(w_k), x @ tensor(w_v)
    n = x.shape[0]
    out = t.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
    allowed = t.ones(n, n, dtype=t.bool).tril()
    return out.numpy(), _weights(q, k, allowed).numpy()


@memoised
def multihead_attention(x, w_q, w_k, w_v, w_o, *, num_heads, causal):
    """(out, weights): torch's (n, h*d) -> (h, n, d) head split, SDPA per head, concat, w_o."""
    t = torch()
    x = tensor(x)
    n, h = x.shape[0], num_heads
    q = (x @ tensor(w_q)).view(n, h, -1).transpose(0, 1)  # (h, n, d_k)
    k = (x @ tensor(w_k)).view(n, h, -1).transpose(0, 1)  # (h, n, d_k)
    v = (x @ tensor(w_v)).view(n, h, -1).transpose(0, 1)  # (h, n, d_v)
    heads = t.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal)
    out = heads.transpose(0, 1).reshape(n, -1) @ tensor(w_o)  # (n, d_out)
    allowed = t.ones(n, n, dtype=t.bool).tril() if causal else None
    return out.numpy(), _weights(q, k, allowed).numpy()


@memoised
def torch_multihead_module(x, w_q, w_k, w_v, w_o, *, num_heads, causal):
    """(out, weights) from torch's own F.multi_head_attention_forward (nn.MultiheadAttention's
    code path), with separate projection weights and no biases. Needs d_model = h*d_k = h*d_v.
    Its masks use True = blocked."""
    t = torch()
    x = tensor(x)[:, None, :]  # (n, batch=1, d_model)
    n, d_model = x.shape[0], x.shape[2]
    blocked = t.ones(n, n, dtype=t.bool).triu(1) if causal else None
    out, weights = t.nn.functional.multi_head_attention_forward(
        x, x, x, d_model, num_heads,
        in_proj_weight=None, in_proj_bias=None, bias_k=None, bias_v=None, add_zero_attn=False,
        dropout_p=0.0, out_proj_weight=tensor(w_o).T, out_proj_bias=None, training=False,
        need_weights=True, attn_mask=blocked, use_separate_proj_weight=True,
        q_proj_weight=tensor(w_q).T, k_proj_weight=tensor(w_k).T, v_proj_weight=tensor(w_v).T,
        average_attn_weights=False,
    )
    return out[:, 0, :].numpy(), weights[0].numpy()
