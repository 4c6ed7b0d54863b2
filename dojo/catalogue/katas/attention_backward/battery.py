"""``dojo compare``'s inputs for attention_backward: edge cases, random cases, one per ValueError, the map and the speed run.

The agreement rows compare dq, dk and dv one by one. The maps are recovered from the
gradients themselves, so they show what yours computed: dq = dS k / sqrt(d_k) gives dS back
through the pseudo-inverse of k (k has full row rank in the map example), dk = dSᵀ q / sqrt(d_k)
gives it back through that of q, and dv = Pᵀ d_out gives the weights P through that of d_out.
"""

from __future__ import annotations

import numpy as np

from dojo.catalogue.batteries import Battery, Case, Panel, Speed, fixed, normal, one_allowed_per_row, set_entry


def _bw(n, m, d_k, d_v, scale=1.0, mask=None, d_scale=1.0):
    """A builder; ``mask`` is None, "causal", or a function (rng, n, m) -> mask."""

    def build(rng):
        kw = {"q": normal(rng, (n, d_k), scale), "k": normal(rng, (m, d_k), scale),
              "v": normal(rng, (m, d_v)), "d_out": normal(rng, (n, d_v), d_scale)}
        if mask == "causal":
            kw["mask"] = np.tril(np.ones((n, m), dtype=bool), m - n)
        elif callable(mask):
            kw["mask"] = mask(rng, n, m)
        return kw

    return build


def _far_below(rng):
    """Causal, every allowed score far below -1e9 (q[:, 0] + 5e4, k[j, 0] - 5e4 t_j: about
    -1.8e9 t_j), d_out small (1e-3): a finite fill of -1e9 moves the weight to blocked keys, while
    the rounding in which correct answers differ (about 1e-16 of |k|, |q| times |dP|) stays under
    the comparison's 1e-12 even where a one-hot row's dq and dk are 0."""
    kw = _bw(4, 4, 2, 3, mask="causal", d_scale=1e-3)(rng)
    steps = rng.permutation(4) + 1.0
    kw["q"][:, 0] += 5e4
    kw["k"][:, 0] -= 5e4 * steps
    return kw


def _bw_random(i: int) -> Case:
    plan = np.random.default_rng(5000 + i)
    n, m, d_k, d_v = (int(s) for s in plan.integers(1, 7, size=4))
    if i % 4 == 3:
        m, d_v = n, d_k  # the coinciding sizes real code meets
    density = float(plan.choice([0.0, 0.4, 1.0]))
    mask = None if density == 0.0 else (lambda rng, n, m: one_allowed_per_row(rng, n, m, density))
    label = "no mask" if mask is None else f"mask density {density:g}"
    return Case(f"random {i + 1}: n={n}, m={m}, d_k={d_k}, d_v={d_v}, {label}",
                _bw(n, m, d_k, d_v, float(plan.choice([0.3, 1.0, 3.0])), mask), "random")


def _single_key(rng, n, m):
    mask = np.zeros((n, m), dtype=bool)
    mask[np.arange(n), rng.integers(0, m, size=n)] = True
    return mask


def _last_key_blocked(rng, n, m):
    mask = one_allowed_per_row(rng, n, m - 1, 0.7)
    return np.hstack([mask, np.zeros((n, 1), dtype=bool)])


def _blocked_key_huge(rng):
    """Key 3 is blocked for every query and points along query 0, 1e10 times larger: its score is ~1e10."""
    kw = _bw(3, 4, 2, 3, mask=_last_key_blocked)(rng)
    kw["k"][3] = kw["q"][0] * 1e10
    kw["v"][3] = normal(rng, 3, 1e6)
    return kw


def _bw_error(**changes):
    """A valid (n=3, m=4, d_k=2, d_v=5) call with ``changes`` applied; a change may be a function of the kwargs."""

    def build(rng):
        kw = _bw(3, 4, 2, 5)(rng)
        kw["mask"] = np.ones((3, 4), dtype=bool)
        for key, value in changes.items():
            kw[key] = value(kw) if callable(value) else value
        return kw

    return build


def _overflowing_gradient(kw):
    v = np.where(kw["v"] >= 0, 1.0, -1.0) * 1e200
    v[0] = -v[0]
    return v


_MAP_MASK = np.tril(np.ones((5, 6), dtype=bool))  # causal; key 5 is blocked for every query


def _map_inputs() -> dict:
    rng = np.random.default_rng(8)
    return {"q": normal(rng, (5, 8), 1.2), "k": normal(rng, (6, 8), 1.2), "v": normal(rng, (6, 7)),
            "d_out": normal(rng, (5, 7)), "mask": _MAP_MASK.copy()}


def _reference_ds(kw) -> np.ndarray:
    """dS of the map example, from its inputs (only its size is used: to scale the maps)."""
    s = np.where(kw["mask"], kw["q"] @ kw["k"].T / np.sqrt(kw["q"].shape[1]), -np.inf)
    p = np.exp(s - s.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    dp = kw["d_out"] @ kw["v"].T
    return p * (dp - (dp * p).sum(axis=1, keepdims=True))


def _clean(a: np.ndarray) -> np.ndarray:
    """Round-off from the pseudo-inverse (below 1e-9) drawn as exactly 0."""
    return np.where(np.abs(a) < 1e-9, 0.0, a)


def _panels(kw) -> list[Panel]:
    d_k = kw["q"].shape[1]
    size = float(np.max(np.abs(_reference_ds(kw))))
    k_pinv, q_pinv, d_pinv = (np.linalg.pinv(kw[a]) for a in ("k", "q", "d_out"))
    return [
        Panel("weights P, recovered from dv = Pᵀ d_out", blocked=~kw["mask"],
              derive=lambda outs: _clean((outs[2] @ d_pinv).T)),
        Panel("|dS| / max |dS|, recovered from dq = dS k / sqrt(d_k)", blocked=~kw["mask"], distribution=False,
              derive=lambda outs: _clean(np.abs(np.sqrt(d_k) * outs[0] @ k_pinv) / size)),
        Panel("|dS| / max |dS|, recovered from dk = dSᵀ q / sqrt(d_k)", blocked=~kw["mask"], distribution=False,
              derive=lambda outs: _clean(np.abs(np.sqrt(d_k) * outs[1] @ q_pinv).T / size)),
    ]


def _torch_backward(torch, kw):
    q, k, v, d_out = (torch.from_numpy(kw[a]) for a in ("q", "k", "v", "d_out"))
    allowed = torch.from_numpy(kw["mask"])

    def call():
        qq, kk, vv = (a.detach().requires_grad_(True) for a in (q, k, v))
        s = (qq @ kk.T / q.shape[1] ** 0.5).masked_fill(~allowed, float("-inf"))
        (torch.softmax(s, dim=-1) @ vv).backward(d_out)
        return qq.grad, kk.grad, vv.grad

    return call


BATTERY = Battery(
    kata="attention_backward",
    outputs=("dq", "dk", "dv"),
    cases=(
        Case("n = m, d_k = d_v, no mask", _bw(4, 4, 3, 3)),
        Case("n != m: 2 queries, 5 keys", _bw(2, 5, 3, 4)),
        Case("n != m: 5 queries, 3 keys", _bw(5, 3, 2, 4)),
        Case("d_k != d_v (d_k=6, d_v=2)", _bw(3, 4, 6, 2)),
        Case("n = m = d_k = d_v = 3", _bw(3, 3, 3, 3, mask="causal")),
        Case("causal mask", _bw(4, 4, 3, 2, mask="causal")),
        Case("causal, aligned bottom-right (n=3, m=5)", _bw(3, 5, 2, 3, mask="causal")),
        Case("one allowed key per query (dq = 0)", _bw(4, 5, 3, 2, mask=_single_key)),
        Case("a key every query blocks", _bw(4, 5, 2, 3, mask=_last_key_blocked)),
        Case("a blocked key with a score of ~1e10", _blocked_key_huge),
        Case("one query, one key", _bw(1, 1, 2, 2)),
        Case("large scores (~1e4)", _bw(3, 4, 4, 2, scale=100.0)),
        Case("large d_out (1e8)", _bw(3, 4, 2, 3, d_scale=1e8)),
        Case("d_out = 0", lambda r: {**_bw(3, 4, 2, 3)(r), "d_out": np.zeros((3, 3))}),
        Case("float32 inputs (computed in float64)",
             lambda r: {a: x.astype(np.float32) for a, x in _bw(3, 4, 3, 2)(r).items()}),
        # q·k of about 2**20 apart by 0.06: float32 rounds the two keys' first entries to one value
        Case("keys 6e-8 apart under q ~ 2**20 (lost in float32)",
             fixed(q=np.array([[2.0**20, 0.0]]), k=np.array([[1.0, 1e4], [1.0 + 5.7e-8, 2e4]]),
                   v=np.array([[0.0, 1.0], [1.0, 0.0]]), d_out=np.array([[1.0, 0.5]]), mask=None)),
        Case("nested-list inputs", lambda r: {a: x.tolist() for a, x in _bw(2, 3, 2, 2)(r).items()}),
        Case("integer inputs", lambda r: {a: np.round(x * 3).astype(np.int64) for a, x in _bw(3, 3, 2, 2, 0.5)(r).items()}),
        Case("causal mask, every allowed score far below -1e9 (about -2e9)", _far_below),
        *(_bw_random(i) for i in range(8)),
        Case("q is 1-D", _bw_error(q=lambda kw: kw["q"][0], d_out=lambda kw: kw["d_out"][:1], mask=None), "error"),
        Case("k is 3-D", _bw_error(k=lambda kw: kw["k"][None]), "error"),
        Case("k and v have no rows", _bw_error(k=np.zeros((0, 2)), v=np.zeros((0, 5)), mask=None), "error"),
        Case("k wider than q", _bw_error(k=lambda kw: np.hstack([kw["k"], kw["k"]])), "error"),
        Case("v has fewer rows than k", _bw_error(v=lambda kw: kw["v"][:3]), "error"),
        Case("NaN in q", _bw_error(q=lambda kw: set_entry(kw["q"], (1, 0), np.nan)), "error"),
        Case("+inf in v", _bw_error(v=lambda kw: set_entry(kw["v"], (2, 1), np.inf)), "error"),
        Case("mask of 0/1 integers", _bw_error(mask=np.ones((3, 4), dtype=np.int64)), "error"),
        Case("mask of shape (1, m) (no broadcasting)", _bw_error(mask=np.ones((1, 4), dtype=bool)), "error"),
        Case("a query row with no allowed key", _bw_error(mask=lambda kw: set_entry(kw["mask"], 1, False)), "error"),
        Case("scores overflow to inf", _bw_error(q=lambda kw: kw["q"] * 1e160, k=lambda kw: kw["k"] * 1e160), "error"),
        Case("d_out of shape (1, d_v) (would broadcast)", _bw_error(d_out=lambda kw: kw["d_out"][:1]), "error"),
        Case("d_out of shape (n, 1) (would broadcast)", _bw_error(d_out=lambda kw: kw["d_out"][:, :1]), "error"),
        Case("d_out of shape (d_v,) (would broadcast)", _bw_error(d_out=lambda kw: kw["d_out"][0]), "error"),
        Case("d_out transposed (d_v, n)", _bw_error(d_out=lambda kw: kw["d_out"].T.copy()), "error"),
        Case("NaN in d_out", _bw_error(d_out=lambda kw: set_entry(kw["d_out"], (0, 2), np.nan)), "error"),
        Case("-inf in d_out", _bw_error(d_out=lambda kw: set_entry(kw["d_out"], (2, 4), -np.inf)), "error"),
        Case("gradients overflow (d_out, v ~1e200)",
             _bw_error(v=_overflowing_gradient, d_out=lambda kw: np.ones((3, 5)) * 1e200,
                       q=lambda kw: kw["q"] * 0.1, k=lambda kw: kw["k"] * 0.1), "error"),
    ),
    map_what="5 queries × 6 keys, causal; key 5 is blocked for every query (row = query, column = key)",
    map_inputs=_map_inputs,
    panels=_panels,
    blocked_words="weight or gradient on keys the mask blocks (above the diagonal; column 5 for every query)",
    speed=Speed(
        what="q, k, v, d_out of shape (n, 64), causal mask (n, n)",
        sizes=(256, 512),
        build=lambda n: {**_bw(n, n, 64, 64)(np.random.default_rng(n)), "mask": np.tril(np.ones((n, n), dtype=bool))},
        torch=_torch_backward,
    ),
)
