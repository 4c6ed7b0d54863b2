"""``dojo compare``'s inputs for speculative_decoding: edge cases, random cases, one per ValueError, the map and the speed run."""

from __future__ import annotations

import numpy as np

from dojo.catalogue.batteries import Battery, Case, Panel, Speed, fixed, normal


def _call(draft_tokens, q, p, u_accept, u_sample) -> dict:
    def arr(a):
        return np.asarray(a, dtype=np.float64) if not isinstance(a, list) else a

    return {"draft_tokens": np.asarray(draft_tokens, dtype=np.int64) if not isinstance(draft_tokens, list) else draft_tokens,
            "q": arr(q), "p": arr(p), "u_accept": arr(u_accept), "u_sample": u_sample}


def _rows(rng, rows: int, V: int, scale: float = 1.0, sparse: float = 0.0) -> np.ndarray:
    w = np.exp(normal(rng, (rows, V), scale))
    if sparse:
        zero = rng.random((rows, V)) < sparse
        zero[np.arange(rows), rng.integers(0, V, size=rows)] = False
        w[zero] = 0.0
    return w / w.sum(axis=1, keepdims=True)


def _draw(w, u) -> int:
    c = np.cumsum(w) / np.sum(w)
    return int(min(np.searchsorted(c, u, side="right"), len(w) - 1))


def _clear(kw: dict) -> dict:
    """Every u_accept at least 1e-6 from its ratio; u_sample at least 1e-6 from each positive
    cumulative of the distribution it is drawn from (the contract leaves 1e-9 open)."""
    x, q, p = np.asarray(kw["draft_tokens"], dtype=np.int64), kw["q"], kw["p"]
    u = np.array(kw["u_accept"], dtype=np.float64)
    k = len(x)
    ratio = p[np.arange(k), x] / q[np.arange(k), x]
    near = (ratio > 0) & (np.abs(u - ratio) < 1e-6)
    u[near] = np.maximum(ratio[near] - 1e-4, 0.0)
    rejected = np.flatnonzero(~(u < ratio))
    n = int(rejected[0]) if rejected.size else k
    w = p[k] if n == k else np.maximum(p[n] - q[n], 0.0)
    c = np.cumsum(w) / w.sum()
    us = kw["u_sample"]
    if np.min(np.abs(c[c > 0] - us)) < 1e-6:
        t = int(np.argmax(w))
        us = float(((c[t - 1] if t else 0.0) + c[t]) / 2)
    return {**kw, "u_accept": u, "u_sample": us}


def _generated(rng, k: int, V: int, close: float, scale: float = 1.0, sparse: float = 0.0) -> dict:
    """Drafts drawn from q; p a perturbation of q by ``close`` (0: unrelated), the bonus row fresh."""
    q = _rows(rng, k, V, scale, sparse)
    if close:
        p = np.vstack([q * np.exp(normal(rng, (k, V), close)), _rows(rng, 1, V, scale)])
        p /= p.sum(axis=1, keepdims=True)
    else:
        p = _rows(rng, k + 1, V, scale, sparse)
    x = np.array([_draw(q[i], rng.random()) for i in range(k)], dtype=np.int64)
    return _clear(_call(x, q, p, np.floor(rng.random(k) * 1e3) / 1e3, float(np.floor(rng.random() * 1e3) / 1e3)))


def _random(i: int) -> Case:
    plan = np.random.default_rng(2100 + i)
    k, V = int(plan.integers(1, 7)), int(plan.integers(2, 10))
    close = float(plan.choice([0.0, 0.2, 0.5]))
    sparse = float(plan.choice([0.0, 0.4]))
    return Case(f"random {i + 1}: k={k}, V={V}, p {'near' if close else 'apart from'} q"
                f"{', sparse' if sparse else ''}",
                lambda rng: _generated(rng, k, V, close, 1.0, sparse), "random")


# fixed rows (exact in binary where it matters)
_Q = np.array([[0.5, 0.25, 0.25, 0.0], [0.125, 0.375, 0.25, 0.25], [0.25, 0.25, 0.25, 0.25]])
_P = np.array([[0.25, 0.5, 0.25, 0.0], [0.0, 0.5, 0.125, 0.375], [0.5, 0.125, 0.125, 0.25],
               [0.0, 0.25, 0.25, 0.5]])


def _base(**changes) -> dict:
    kw = _call(np.array([0, 2, 1]), _Q.copy(), _P.copy(), np.array([0.3, 0.6, 0.2]), 0.6)
    kw.update(changes)
    return kw


def _map_inputs() -> dict:
    rng = np.random.default_rng(18)
    return _generated(rng, 8, 12, 0.3)


def _one_hot(kw):
    """The derived map: row j is one-hot at the j-th emitted token (rows past the answer stay 0)."""
    k, V = np.shape(kw["q"])

    def derive(outputs):
        tokens = np.asarray(outputs[0]).astype(np.int64).reshape(-1)
        m = np.zeros((k + 1, V))
        m[np.arange(min(len(tokens), k + 1)), tokens[: k + 1]] = 1.0
        return m

    return derive


def _speed_case(n: int) -> dict:
    rng = np.random.default_rng(n)
    return _generated(rng, 16, n, 0.1, 3.0)


def _torch_verify(torch, kw):
    x = torch.from_numpy(np.asarray(kw["draft_tokens"], dtype=np.int64))
    q, p = torch.from_numpy(kw["q"]), torch.from_numpy(kw["p"])
    u = torch.from_numpy(np.asarray(kw["u_accept"], dtype=np.float64))
    us = torch.tensor([float(kw["u_sample"])], dtype=torch.float64)
    k = x.shape[0]

    def call():
        ratio = p[:k].gather(1, x[:, None])[:, 0] / q.gather(1, x[:, None])[:, 0]
        n = int(torch.cumprod((u < ratio).to(torch.int64), dim=0).sum())
        w = p[k] if n == k else torch.clamp(p[n] - q[n], min=0.0)
        c = w.cumsum(dim=0)
        return torch.cat([x[:n], torch.searchsorted(c / c[-1], us, right=True)])

    return call


_E = _call(np.array([1]), np.array([[0.5, 0.5]]), np.array([[0.25, 0.75], [0.5, 0.5]]), np.array([0.3]), 0.7)


def _bad(**changes):
    return fixed(**{**_E, **changes})


BATTERY = Battery(
    kata="speculative_decoding",
    outputs=("tokens",),
    cases=(
        Case("k = 0: one token from p[0]", fixed(**_call(np.zeros(0, dtype=np.int64), np.zeros((0, 4)),
                                                          np.array([[0.0, 0.5, 0.25, 0.25]]), np.zeros(0), 0.6))),
        Case("k = 0 as empty lists", fixed(**_call([], np.zeros((0, 3)), np.array([[0.25, 0.25, 0.5]]), [], 0.0))),
        Case("every draft accepted: the bonus from p[k]", fixed(**_base(u_accept=np.array([0.3, 0.1, 0.2])))),
        Case("the bonus at u_sample = 0 skips a token of probability 0",
             fixed(**_base(u_accept=np.array([0.3, 0.1, 0.2]), u_sample=0.0))),
        Case("the first draft rejected", fixed(**_base(u_accept=np.array([0.7, 0.1, 0.2])))),
        Case("the first draft rejected, u_sample = 0", fixed(**_base(u_accept=np.array([0.7, 0.1, 0.2]), u_sample=0.0))),
        Case("the second draft rejected", fixed(**_base(u_accept=np.array([0.3, 0.9, 0.2]), u_sample=0.3))),
        Case("the last draft rejected", fixed(**_base(u_accept=np.array([0.3, 0.1, 0.6]), u_sample=0.3))),
        Case("the last draft rejected, u_sample 0.9", fixed(**_base(u_accept=np.array([0.3, 0.1, 0.6]), u_sample=0.9))),
        Case("p(x) = 0: rejected even at u_accept = 0",
             fixed(**_call(np.array([2, 1]), np.array([[0.25, 0.25, 0.5], [0.5, 0.5, 0.0]]),
                           np.array([[0.5, 0.5, 0.0], [0.25, 0.5, 0.25], [0.25, 0.25, 0.5]]),
                           np.array([0.0, 0.0]), 0.1))),
        Case("p/q above 1: accepted at any u", fixed(**_call(np.array([1, 0]), np.array([[0.75, 0.25], [0.5, 0.5]]),
                                                             np.array([[0.25, 0.75], [0.75, 0.25], [0.5, 0.5]]),
                                                             np.array([0.99, 0.95]), 0.4))),
        Case("the residual where p - q is negative first",
             fixed(**_call(np.array([0]), np.array([[0.5, 0.25, 0.25]]), np.array([[0.125, 0.75, 0.125], [1.0, 0.0, 0.0]]),
                           np.array([0.5]), 0.0))),
        Case("the residual has two tokens: u_sample picks the smaller",
             fixed(**_call(np.array([0]), np.array([[0.75, 0.125, 0.125]]),
                           np.array([[0.0, 0.625, 0.375], [0.0, 0.0, 1.0]]), np.array([0.5]), 0.9))),
        Case("later drafts are never looked at after a rejection",
             fixed(**_call(np.array([0, 1, 1]), np.array([[0.5, 0.5], [0.5, 0.5], [0.5, 0.5]]),
                           np.array([[0.25, 0.75], [0.0, 1.0], [0.0, 1.0], [1.0, 0.0]]),
                           np.array([0.75, 0.0, 0.0]), 0.5))),
        Case("equal rows: every draft accepted", fixed(**_call(np.array([2, 0, 1, 1]), np.tile([0.25, 0.25, 0.5], (4, 1)),
                                                               np.vstack([np.tile([0.25, 0.25, 0.5], (4, 1)),
                                                                          [[0.5, 0.0, 0.5]]]),
                                                               np.array([0.999, 0.5, 0.0, 0.9]), 0.6))),
        Case("V = 1", fixed(**_call(np.array([0, 0]), np.ones((2, 1)), np.ones((3, 1)), np.array([0.5, 0.9]), 0.3))),
        Case("rows summing to 1 +- 5e-7 are valid",
             fixed(**_base(q=_Q * (1 + 5e-7), p=_P * (1 - 5e-7), u_accept=np.array([0.7, 0.1, 0.2])))),
        Case("nested lists, u_sample the int 0",
             fixed(draft_tokens=[0, 2, 1], q=_Q.tolist(), p=_P.tolist(), u_accept=[0.3, 0.6, 0.2], u_sample=0)),
        Case("int32 drafts, float32 rows, u_sample a NumPy float",
             fixed(**{**_base(), "draft_tokens": np.array([0, 2, 1], dtype=np.int32), "q": _Q.astype(np.float32),
                      "p": _P.astype(np.float32), "u_sample": np.float64(0.6)})),
        Case("long accepted prefix: k = 64, p near q", lambda r: _generated(r, 64, 8, 0.05)),
        Case("sparse rows (exact zeros)", lambda r: _generated(r, 6, 10, 0.0, 1.0, 0.5)),
        Case("peaky rows (tiny probabilities)", lambda r: _generated(r, 5, 12, 0.0, 4.0)),
        *(_random(i) for i in range(8)),
        Case("draft_tokens 2-D", _bad(draft_tokens=np.array([[1]])), "error"),
        Case("draft_tokens bool", _bad(draft_tokens=np.array([True])), "error"),
        Case("draft_tokens float", _bad(draft_tokens=np.array([1.0])), "error"),
        Case("a draft token = V", _bad(draft_tokens=np.array([2])), "error"),
        Case("a draft token -1", _bad(draft_tokens=np.array([-1])), "error"),
        Case("q of shape (k + 1, V)", _bad(q=np.array([[0.5, 0.5], [0.5, 0.5]])), "error"),
        Case("p of shape (k, V)", _bad(p=np.array([[0.25, 0.75]])), "error"),
        Case("p with another V", _bad(p=np.array([[0.25, 0.75, 0.0], [0.5, 0.5, 0.0]])), "error"),
        Case("V = 0", _bad(draft_tokens=np.zeros(0, dtype=np.int64), q=np.zeros((0, 0)), p=np.zeros((1, 0)),
                           u_accept=np.zeros(0)), "error"),
        Case("NaN in p", _bad(p=np.array([[0.25, np.nan], [0.5, 0.5]])), "error"),
        Case("inf in q", _bad(q=np.array([[0.5, np.inf]])), "error"),
        Case("a negative entry in p", _bad(p=np.array([[-0.25, 1.25], [0.5, 0.5]])), "error"),
        Case("a row of p summing to 1 + 2e-6", _bad(p=np.array([[0.25, 0.75 + 2e-6], [0.5, 0.5]])), "error"),
        Case("a row of q summing to 1.1", _bad(q=np.array([[0.5, 0.6]])), "error"),
        Case("q[i, x_i] = 0", _bad(q=np.array([[1.0, 0.0]])), "error"),
        Case("u_accept of shape (k + 1,)", _bad(u_accept=np.array([0.3, 0.3])), "error"),
        Case("NaN in u_accept", _bad(u_accept=np.array([np.nan])), "error"),
        Case("u_accept = 1", _bad(u_accept=np.array([1.0])), "error"),
        Case("u_sample = 1", _bad(u_sample=1.0), "error"),
        Case("u_sample NaN", _bad(u_sample=float("nan")), "error"),
        Case("u_sample True", _bad(u_sample=True), "error"),
        Case("u_sample a list", _bad(u_sample=[0.5]), "error"),
    ),
    map_what="the tokens emitted for k = 8 drafts over V = 12 tokens, p near q (row j = the j-th emitted token, one-hot over the columns, one per token of the vocabulary; rows past the answer are empty)",
    map_inputs=_map_inputs,
    panels=lambda kw: [Panel("emitted tokens", derive=_one_hot(kw), distribution=False)],
    blocked_words="",
    speed=Speed(
        what="k = 16 drafts, q of shape (16, n), p of shape (17, n), p near q",
        sizes=(4096, 32000),
        build=_speed_case,
        torch=_torch_verify,
    ),
    tolerance="speculative_decoding",
)
