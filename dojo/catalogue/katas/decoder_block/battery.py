"""``dojo compare``'s inputs for decoder_block: edge cases, random cases, one per ValueError, the map and the speed run."""

from __future__ import annotations

import numpy as np

from dojo.catalogue.batteries import Battery, Case, Panel, Speed, fixed, normal, set_entry


def _block(rng, n, p, d_model, h, d_head, d_ff, x_scale=1.0, cache=True, w_scale=None) -> dict:
    """A call: n new tokens after a cache of p (None when ``cache`` is False), weights of scale
    ~1/sqrt(fan-in) (or ``w_scale``), norm weights around 1."""
    H = h * d_head

    def w(shape):
        return normal(rng, shape, w_scale or (1.0 if shape[0] <= 6 else 0.3 if shape[0] <= 33 else 0.1))

    kw = {
        "x": normal(rng, (n, d_model), x_scale),
        "norm1": np.round(1.0 + 0.3 * rng.standard_normal(d_model), 2),
        "w_q": w((d_model, H)), "w_k": w((d_model, H)), "w_v": w((d_model, H)), "w_o": w((H, d_model)),
        "norm2": np.round(1.0 + 0.3 * rng.standard_normal(d_model), 2),
        "w_gate": w((d_model, d_ff)), "w_up": w((d_model, d_ff)), "w_down": w((d_ff, d_model)),
        "num_heads": h, "past_k": None, "past_v": None,
    }
    if cache:
        kw["past_k"], kw["past_v"] = normal(rng, (h, p, d_head)), normal(rng, (h, p, d_head))
    return kw


def _call(n, p, d_model, h, d_head, d_ff, **options):
    return lambda rng: _block(rng, n, p, d_model, h, d_head, d_ff, **options)


def _large(n, p, d_model, h, d_head, d_ff):
    """Scores ~1e3: w_q and w_k 30 times larger."""

    def build(rng):
        kw = _block(rng, n, p, d_model, h, d_head, d_ff)
        kw["w_q"], kw["w_k"] = kw["w_q"] * 30.0, kw["w_k"] * 30.0
        return kw

    return build


def _random(i: int) -> Case:
    plan = np.random.default_rng(9000 + i)
    n, p, d_model, h, d_head, d_ff = (int(s) for s in plan.integers(1, 6, size=6))
    p -= 1
    d_model = d_model if d_model != d_head else d_model + 1
    scale = float(plan.choice([0.3, 1.0, 3.0]))
    return Case(f"random {i + 1}: n={n}, p={p}, d_model={d_model}, h={h}, d_head={d_head}, d_ff={d_ff}",
                _call(n, p, d_model, h, d_head, d_ff, x_scale=scale), "random")


def _error(**changes):
    """A valid (n=3, p=2, d_model=4, h=2, d_head=3, d_ff=5) call with ``changes`` applied; a change
    may be a function of the kwargs."""

    def build(rng):
        kw = _block(rng, 3, 2, 4, 2, 3, 5)
        for key, value in changes.items():
            kw[key] = value(kw) if callable(value) else value
        return kw

    return build


def _scaled_columns(kw):
    """Head 0's columns of w_q and w_k equal and 1e170 times larger: its allowed scores overflow."""
    w_q = kw["w_q"].copy()
    w_q[:, :3] *= 1e170
    w_k = kw["w_k"].copy()
    w_k[:, :3] = w_q[:, :3]
    return {**kw, "w_q": w_q, "w_k": w_k}


def _out_overflows(rng):
    kw = _block(rng, 3, 2, 4, 2, 3, 5)
    c = np.array([1.0, -0.5, 0.7, 0.3]) * 1e200
    kw["w_gate"] = np.hstack([c[:, None], -c[:, None], kw["w_gate"]])
    kw["w_up"] = np.hstack([c[:, None], -c[:, None], kw["w_up"]])
    kw["w_down"] = np.vstack([np.full((2, 4), 0.5), kw["w_down"]])
    return kw


def _far_below(rng) -> dict:
    """n=3 after p=2: every score near -1e20 (x's column 0 positive and distinct, norm1[0] = 1e10,
    w_q's row 0 all 1, w_k's all -1, the past keys -1e10 times distinct values), each query's
    scores far apart: a blocked score filled with -1e9 instead of -inf takes the weight."""
    kw = _block(rng, 3, 2, 4, 2, 3, 5)
    x = kw["x"].copy()
    x[:, 0], x[:, 1], x[:, 2:] = [2.0, 3.0, 1.0], 3.0, 0.0
    w_q, w_k, w_v = (np.zeros_like(kw[w]) for w in ("w_q", "w_k", "w_v"))
    w_q[0], w_k[0] = 1.0, -1.0
    w_v[1:] = kw["w_v"][1:]
    norm1 = kw["norm1"].copy()
    norm1[0] = 1e10
    past_k = np.broadcast_to(-1e10 * np.array([0.9, 1.7])[None, :, None], (2, 2, 3)).copy()
    return {**kw, "x": x, "norm1": norm1, "w_q": w_q, "w_k": w_k, "w_v": w_v, "past_k": past_k}


def _map_inputs() -> dict:
    return _block(np.random.default_rng(17), 6, 4, 8, 2, 4, 12)


def _speed_case(m: int) -> dict:
    """m tokens in all: m / 4 new after a cache of 3 m / 4; d_model 256, 4 heads of 64, d_ff 688."""
    n = m // 4
    return _block(np.random.default_rng(m), n, m - n, 256, 4, 64, 688)


def _torch_block(torch, kw):
    F = torch.nn.functional
    x, norm1, w_q, w_k, w_v, w_o, norm2, w_gate, w_up, w_down, past_k, past_v = (
        torch.from_numpy(np.asarray(kw[a], dtype=np.float64)) for a in
        ("x", "norm1", "w_q", "w_k", "w_v", "w_o", "norm2", "w_gate", "w_up", "w_down", "past_k", "past_v"))
    h = kw["num_heads"]
    n = x.shape[0]

    def rms(a, w):
        return a * torch.rsqrt(a.pow(2).mean(-1, keepdim=True) + 1e-6) * w

    def call():
        xn = rms(x, norm1)
        q, k, v = ((xn @ w).view(n, h, -1).transpose(0, 1) for w in (w_q, w_k, w_v))
        k, v = torch.cat([past_k, k], 1), torch.cat([past_v, v], 1)
        m = k.shape[1]
        allowed = torch.ones(n, m, dtype=torch.bool).tril(diagonal=m - n)
        heads = F.scaled_dot_product_attention(q, k, v, attn_mask=allowed)
        h1 = x + heads.transpose(0, 1).reshape(n, -1) @ w_o
        hn = rms(h1, norm2)
        return h1 + (F.silu(hn @ w_gate) * (hn @ w_up)) @ w_down, k, v

    return call


BATTERY = Battery(
    kata="decoder_block",
    outputs=("out", "new_k", "new_v"),
    cases=(
        Case("one decoding step: n=1 after p=5 cached", _call(1, 5, 6, 2, 3, 8)),
        Case("a chunk: n=3 after p=4 cached", _call(3, 4, 5, 2, 2, 7)),
        Case("prefill, no cache (past None): n=4", _call(4, 0, 6, 3, 2, 5, cache=False)),
        Case("an empty cache (p = 0): n=3", _call(3, 0, 5, 2, 3, 4)),
        Case("one head: n=3 after p=2", _call(3, 2, 4, 1, 3, 6)),
        Case("d_head = 1, four heads: n=2 after p=3", _call(2, 3, 5, 4, 1, 3)),
        Case("d_model = h * d_head = 6: n=3 after p=2", _call(3, 2, 6, 2, 3, 5)),
        Case("d_ff = 1: n=2 after p=2", _call(2, 2, 4, 2, 2, 1)),
        Case("x of rms ~1e-3 (eps matters): n=3 after p=2", _call(3, 2, 5, 2, 3, 4, x_scale=0.001)),
        Case("x of scale 100: n=2 after p=3", _call(2, 3, 5, 2, 2, 6, x_scale=100.0)),
        Case("large scores (~1e3): n=3 after p=3", _large(3, 3, 5, 2, 3, 4)),
        Case("scores far below zero (~-1e20): n=3 after p=2", _far_below),
        Case("a cache of 70 past a 64-position mask: n=2", _call(2, 70, 6, 2, 3, 5)),
        Case("a chunk of 66 new tokens, no cache", _call(66, 0, 4, 2, 2, 3, cache=False)),
        Case("float32 inputs (computed in float64)",
             lambda r: {k: (v.astype(np.float32) if isinstance(v, np.ndarray) else v)
                        for k, v in _block(r, 2, 2, 4, 2, 3, 5).items()}),
        Case("nested-list inputs, num_heads a NumPy int",
             lambda r: {k: (v.tolist() if isinstance(v, np.ndarray) else v)
                        for k, v in {**_block(r, 2, 1, 3, 2, 2, 3), "num_heads": np.int64(2)}.items()}),
        *(_random(i) for i in range(8)),
        Case("x is 1-D (one token as a vector)", _error(x=lambda kw: kw["x"][0]), "error"),
        Case("x has no rows (n = 0)", _error(x=np.zeros((0, 4))), "error"),
        Case("norm1 of shape (1,) (would broadcast)", _error(norm1=np.array([1.0])), "error"),
        Case("norm2 of shape (d_model + 1,)", _error(norm2=np.ones(5)), "error"),
        Case("w_k with one row more", _error(w_k=lambda kw: np.vstack([kw["w_k"], kw["w_k"][:1]])), "error"),
        Case("w_o transposed", _error(w_o=lambda kw: kw["w_o"].T.copy()), "error"),
        Case("w_down with one row fewer", _error(w_down=lambda kw: kw["w_down"][:-1]), "error"),
        Case("h * d_head = 0", _error(w_q=np.zeros((4, 0)), w_k=np.zeros((4, 0)), w_v=np.zeros((4, 0)),
                                      w_o=np.zeros((0, 4)), past_k=np.zeros((2, 2, 0)), past_v=np.zeros((2, 2, 0))),
             "error"),
        Case("num_heads True", _error(num_heads=True, past_k=None, past_v=None,
                                      w_q=lambda kw: kw["w_q"][:, :3], w_k=lambda kw: kw["w_k"][:, :3],
                                      w_v=lambda kw: kw["w_v"][:, :3], w_o=lambda kw: kw["w_o"][:3]), "error"),
        Case("num_heads 2.0", _error(num_heads=2.0), "error"),
        Case("num_heads 0", _error(num_heads=0), "error"),
        Case("num_heads 4 does not divide the width 6", _error(num_heads=4, past_k=None, past_v=None), "error"),
        Case("past_k without past_v", _error(past_v=None), "error"),
        Case("an empty past_v without past_k", _error(past_k=None, past_v=np.zeros((2, 0, 3))), "error"),
        Case("past_k 2-D", _error(past_k=lambda kw: kw["past_k"][0]), "error"),
        Case("past_k with another head count", _error(past_k=lambda kw: np.zeros((3, 2, 3))), "error"),
        Case("past_v with d_head + 1", _error(past_v=lambda kw: np.zeros((2, 2, 4))), "error"),
        Case("past_v one token longer than past_k", _error(past_v=lambda kw: np.zeros((2, 3, 3))), "error"),
        Case("NaN in x", _error(x=lambda kw: set_entry(kw["x"], (1, 2), np.nan)), "error"),
        Case("inf in w_up", _error(w_up=lambda kw: set_entry(kw["w_up"], (0, 4), np.inf)), "error"),
        Case("-inf in past_v", _error(past_v=lambda kw: set_entry(kw["past_v"], (1, 0, 2), -np.inf)), "error"),
        Case("an allowed score overflows to inf", lambda r: _scaled_columns(_error()(r)), "error"),
        Case("out overflows (silu(g) * up ~ 1e400)", _out_overflows, "error"),
    ),
    map_what="out for n=6 new tokens after p=4 cached (d_model=8, 2 heads of 4, d_ff=12; row = token, column = feature)",
    map_inputs=_map_inputs,
    panels=lambda kw: [Panel("out", (0,), distribution=False)],
    blocked_words="",
    speed=Speed(
        what="m = n tokens in all: n/4 new after a cache of 3n/4; d_model 256, 4 heads of 64, d_ff 688",
        sizes=(128, 256),
        build=_speed_case,
        torch=_torch_block,
    ),
)
