"""The independent oracle: PyTorch, float64, CPU.

Nothing here re-implements the katas in NumPy; every expected value comes from torch.

``import torch`` costs about 2.3 s, more than a whole practice run should take. So, outside CI,
answers are kept (``tests/answer_store.py``): the repository ships every answer the
deterministic practice profile asks for, and each machine keeps the others it needed in
``.dojo/cache/``. A correct answer is judged without importing torch, even on a fresh clone.

Shrinking a failure tries inputs nobody has asked about yet. While shrinking, an input whose
answer is not known is skipped (``hypothesis.reject``) unless torch is already imported, so a
wrong answer is not made to wait 2.3 s for a smaller example: the failing input shown is then
less shrunk, but every expected value still comes from torch. Under CI (``CI`` set) or with
``DOJO_ORACLE_CACHE=0`` every answer is computed live, and shrinking is complete.
"""

from __future__ import annotations

import hashlib
import inspect
import os
import sys
from pathlib import Path

import numpy as np

from tests import answer_store, tolerance

_ROOT = Path(__file__).resolve().parent.parent
_LIVE_ONLY = bool(os.environ.get("CI")) or os.environ.get("DOJO_ORACLE_CACHE", "1") == "0"
#: ``DOJO_ORACLE_READONLY=1`` (the tool sets it when the state folder cannot be written): use
#: the answers there are, keep no new ones.
_READONLY = os.environ.get("DOJO_ORACLE_READONLY") == "1"
#: ``DOJO_ORACLE_RECORD=FOLDER``: write exactly the answers this run used there (the build of
#: the shipped answers), computing every one live.
_RECORD = os.environ.get("DOJO_ORACLE_RECORD")
#: ``DOJO_ORACLE_VERIFY=FILE``: compute every answer live, compare it with the shipped one, and
#: write what was checked, missing or different to FILE (tests/meta/test_answers.py).
_VERIFY = os.environ.get("DOJO_ORACLE_VERIFY")
_verified = {"checked": 0, "missing": [], "different": [], "files": {}}
_compared: list[tuple[str, str, tuple, tuple]] = []  # (file, key, shipped, live)

_torch = None
_oracles: list["_Oracle"] = []
live_calls = 0  # how many answers torch computed in this process (read by the self-check)
#: Set by the judge while Hypothesis shrinks a failure (see the module docstring).
shrinking = False


def torch():
    """The torch module, imported on first need, in float64 on one thread."""
    global _torch
    if _torch is None:
        import torch as t

        t.set_num_threads(1)
        _torch = t
    return _torch


def _cache_dir() -> Path:
    return Path(os.environ.get("DOJO_STATE_DIR", _ROOT / ".dojo")) / "cache"


def _key(arrays: tuple, params: tuple) -> str:
    h = hashlib.sha1()
    for a in arrays:
        if a is None:
            h.update(b"none")
        else:
            a = np.ascontiguousarray(a)
            h.update(f"{a.dtype.str}{a.shape}".encode())
            h.update(a.tobytes())
    h.update(repr(params).encode())
    return h.hexdigest()


class _Oracle:
    """One oracle function's answers: known ones (shipped, local), new ones, used ones."""

    def __init__(self, compute):
        self.compute = compute
        self.file = f"{compute.__module__.rsplit('.', 1)[-1]}.{compute.__qualname__}.npz"
        self.source = hashlib.sha1(inspect.getsource(compute).encode()).hexdigest()
        self.known: dict | None = None
        self.new: dict = {}
        self.used: dict = {}

    def load(self) -> dict:
        if self.known is None:
            self.known = {}
            if not _LIVE_ONLY and not _RECORD:
                self.known.update(answer_store.read(answer_store.SHIPPED / self.file, self.source))
                secret = answer_store.local_secret(_cache_dir(), create=False)
                if secret is not None:
                    self.known.update(answer_store.read(_cache_dir() / self.file, self.source, secret,
                                                        answer_store.LOCAL_BYTES))
        return self.known

    def __call__(self, arrays, params):
        global live_calls
        key = _key(arrays, tuple(sorted(params.items())))
        if _VERIFY:
            return self.verify(key, arrays, params)
        known = self.load()
        if key not in known:
            if shrinking and not _LIVE_ONLY and "torch" not in sys.modules:
                from hypothesis import reject

                reject()  # not worth importing torch for: try another shrink
            known[key] = tuple(np.array(r, dtype=np.float64) for r in self.compute(*arrays, **params))
            self.new[key] = known[key]
            live_calls += 1
        if _RECORD:
            self.used[key] = known[key]
        return tuple(r.copy() for r in known[key])

    def verify(self, key, arrays, params):
        if self.known is None:
            self.known = answer_store.read(answer_store.SHIPPED / self.file, self.source)
        live = tuple(np.array(r, dtype=np.float64) for r in self.compute(*arrays, **params))
        _verified["checked"] += 1
        shipped = self.known.get(key)
        if shipped is None:
            _verified["missing"].append(f"{self.file}: {key}")
        else:  # compared at the end, with the tightest tolerance the judge applied to them
            _compared.append((self.file, key, shipped, live))
        return tuple(tolerance.tag(r, self.file) for r in live)

    def flush(self) -> None:
        if _RECORD and self.used:
            folder = Path(_RECORD)
            answers = answer_store.read(folder / self.file, self.source)
            answers.update(self.used)
            answer_store.write(folder / self.file, self.source, answers)
            self.used = {}
        if self.new and not _LIVE_ONLY and not _RECORD and not _READONLY:
            path = _cache_dir() / self.file
            secret = answer_store.local_secret(_cache_dir())
            if secret is None:
                self.new = {}
                return
            answers = dict(self.new)  # newest first, then what other runs kept
            kept = answer_store.read(path, self.source, secret, answer_store.LOCAL_BYTES)
            for key, values in kept.items():
                if len(answers) >= answer_store.LOCAL_LIMIT:
                    break
                answers.setdefault(key, values)
            answer_store.write(path, self.source, answers, secret)
        self.new = {}


def flush():
    """Keep new answers on disk (called once at the end of a pytest session)."""
    if _VERIFY:
        import json

        _compare_verified()
        Path(_VERIFY).write_text(json.dumps(_verified), encoding="utf-8")
        return
    for o in _oracles:
        o.flush()


def _compare_verified() -> None:
    """Each shipped answer against live torch, allowing a tenth of the tightest tolerance the
    judge applied to that oracle's answers in this run (tests/tolerance.py says why)."""
    for name, key, shipped, live in _compared:
        rtol, atol = tolerance.tightest.get(name, (tolerance.RTOL, tolerance.ATOL))
        used = max(
            (tolerance.used_fraction(s, w, rtol, atol) for s, w in zip(shipped, live)),
            default=0.0,
        ) if len(shipped) == len(live) else float("inf")
        file = _verified["files"].setdefault(
            name, {"rtol": rtol, "atol": atol, "answers": 0, "worst_fraction": 0.0}
        )
        file["answers"] += 1
        file["worst_fraction"] = max(file["worst_fraction"], used)
        if used > tolerance.SHIPPED_FRACTION:
            _verified["different"].append(f"{name}: {key} uses {used:.3g} of the judge's allowance")


def memoised(compute):
    """Make ``compute(*arrays, **params) -> tuple of arrays`` an oracle whose answers are kept.

    Any kata's judge can define its own torch oracle with this (in its test module). Answers
    are keyed by the exact input bytes and kept per oracle, tagged with the oracle's own
    source: editing an oracle never reuses its old answers.
    """
    oracle = _Oracle(compute)
    _oracles.append(oracle)

    def wrapper(*arrays, **params):
        result = oracle(arrays, params)
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
def projected_attention(x, w_q, w_k, w_v, w_o, *, causal):
    """(out, weights) of single-head attention on Q = x w_q, K = x w_k, V = x w_v, then times w_o.
    The projections are torch's: an answer is keyed by its inputs as drawn, never by a product
    computed here, whose last bits depend on the machine's BLAS (a key that differs on another
    CPU is an answer that is not shipped)."""
    t = torch()
    x = tensor(x)
    q, k, v = x @ tensor(w_q), x @ tensor(w_k), x @ tensor(w_v)
    n = x.shape[0]
    allowed = t.ones(n, n, dtype=t.bool).tril() if causal else None
    out = t.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=allowed)
    return (out @ tensor(w_o)).numpy(), _weights(q, k, allowed).numpy()[None]


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
