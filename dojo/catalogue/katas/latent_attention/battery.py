"""``dojo compare``'s inputs for latent_attention: edge cases, random cases, one per ValueError, the map and the speed run."""

from __future__ import annotations

import numpy as np

from dojo.catalogue.batteries import Battery, Case, Panel, Speed, normal, set_entry


def _mla(n, d_model, h, d_c, d_h, d_v, d_r, positions=None, scale=1.0):
    """A builder; ``positions`` is None (a shuffled range from 3) or a list."""

    def build(rng):
        kw = {
            "x": normal(rng, (n, d_model), scale),
            "w_dkv": normal(rng, (d_model, d_c)),
            "w_uk": normal(rng, (d_c, h * d_h)),
            "w_uv": normal(rng, (d_c, h * d_v)),
            "w_q": normal(rng, (d_model, h * d_h)),
            "w_qr": normal(rng, (d_model, h * d_r)),
            "w_kr": normal(rng, (d_model, d_r)),
            "w_o": normal(rng, (h * d_v, d_model)),
            "num_heads": h,
        }
        kw["positions"] = rng.permutation(n) + 3 if positions is None else np.array(positions)
        return kw

    return build


def _mla_random(i: int) -> Case:
    plan = np.random.default_rng(16000 + i)
    n, d_model, h, d_c, d_h, d_v = (int(s) for s in plan.integers(1, 6, size=6))
    d_r = 2 * int(plan.integers(1, 3))
    return Case(
        f"random {i + 1}: n={n}, d_model={d_model}, heads={h}, d_c={d_c}, d_h={d_h}, d_v={d_v}, d_r={d_r}",
        _mla(n, d_model, h, d_c, d_h, d_v, d_r, scale=float(plan.choice([0.3, 1.0]))),
        "random",
    )


def _mla_error(**changes):
    """A valid call (n=4, d_model=5, 2 heads, d_c=3, d_h=3, d_v=2, d_r=2) with ``changes``; a
    change may be a function of the keyword arguments."""

    def build(rng):
        kw = _mla(4, 5, 2, 3, 3, 2, 2, [4, 0, 9, 1])(rng)
        for key, value in changes.items():
            kw[key] = value(kw) if callable(value) else value
        return kw

    return build


def _far_below(far: float = 1e6):
    """Query 0's only allowed score is about -far² / 10 in both heads (-1e11 by default); its
    blocked scores are ~far."""

    def build(rng):
        kw = _mla(4, 4, 2, 3, 2, 3, 2, [5, 1, 7, 2])(rng)
        kw["w_kr"][0] = np.where(np.abs(kw["w_kr"][0]) < 0.5, 0.5, kw["w_kr"][0])
        kw["w_q"][0] = -np.round(kw["w_dkv"][0] @ kw["w_uk"], 2)
        kw["w_qr"][0] = -np.tile(kw["w_kr"][0], 2)
        kw["x"][0, 0] = far
        return kw

    return build


def _overflowing_score(kw):
    """Query 1's allowed score with key 1 about 1e312 in every head, every input finite."""
    kw["w_kr"][0] = np.where(np.abs(kw["w_kr"][0]) < 0.5, 0.5, kw["w_kr"][0])
    kw["w_qr"][0] = np.tile(kw["w_kr"][0], kw["num_heads"])
    kw["w_q"][0] = np.round(kw["w_dkv"][0] @ kw["w_uk"], 2)
    kw["x"][1, 0] = 1e156
    return kw["x"]


def _positive(kw, *names, factor=1.0):
    for name in names:
        kw[name] = (np.abs(kw[name]) + 0.5) * factor
    return kw


def _as(convert):
    return lambda rng: {k: (convert(v) if isinstance(v, np.ndarray) and k != "positions" else v)
                        for k, v in _mla(3, 4, 2, 3, 1, 2, 2, [2, 0, 5])(rng).items()}


def _map_inputs() -> dict:
    """n = 6 with one-hot latents and values, so out = [head 0 weights | head 1 weights]."""
    rng = np.random.default_rng(16)
    n, h, d_h, d_r = 6, 2, 3, 4
    x = np.hstack([np.eye(n), normal(rng, (n, n), 1.5)])  # (6, 12)
    return {
        "x": x,
        "w_dkv": np.vstack([np.eye(n), np.zeros((n, n))]),  # c_kv = I: key j's latent is e_j
        "w_uk": normal(rng, (n, h * d_h)),
        "w_uv": np.hstack([np.eye(n)] * h),  # v_h[j] = e_j
        "w_q": np.vstack([np.zeros((n, h * d_h)), normal(rng, (n, h * d_h))]),
        "w_qr": normal(rng, (2 * n, h * d_r)),
        "w_kr": normal(rng, (2 * n, d_r)),
        "w_o": np.eye(2 * n),
        "num_heads": h,
        "positions": np.array([0, 1, 2, 3, 4, 5]),
    }


def _head(h):
    return lambda outputs: np.asarray(outputs[0], dtype=np.float64)[:, 6 * h: 6 * (h + 1)]


def _torch_mla(torch, kw):
    names = ("x", "w_dkv", "w_uk", "w_uv", "w_q", "w_qr", "w_kr", "w_o")
    x, w_dkv, w_uk, w_uv, w_q, w_qr, w_kr, w_o = (torch.from_numpy(kw[a]) for a in names)
    n, h, d_r = x.shape[0], kw["num_heads"], w_kr.shape[1]
    freqs = 1.0 / 10000.0 ** (torch.arange(0, d_r, 2, dtype=torch.float64) / d_r)
    angles = torch.outer(torch.from_numpy(kw["positions"]).to(torch.float64), freqs)
    cos, sin = torch.cat([angles.cos()] * 2, -1), torch.cat([angles.sin()] * 2, -1)
    allowed = torch.ones(n, n, dtype=torch.bool).tril()

    def rope(a):
        return a * cos + torch.cat([-a[..., d_r // 2:], a[..., : d_r // 2]], -1) * sin

    def call():
        c_kv = x @ w_dkv
        q = torch.cat([(x @ w_q).view(n, h, -1).transpose(0, 1), rope((x @ w_qr).view(n, h, d_r).transpose(0, 1))], -1)
        k_rope = rope(x @ w_kr)
        k = torch.cat([(c_kv @ w_uk).view(n, h, -1).transpose(0, 1), k_rope.expand(h, n, d_r)], -1)
        v = (c_kv @ w_uv).view(n, h, -1).transpose(0, 1)
        heads = torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=allowed)
        return heads.transpose(0, 1).reshape(n, -1) @ w_o, c_kv, k_rope

    return call


BATTERY = Battery(
    kata="latent_attention",
    outputs=("out", "c_kv", "k_rope"),
    cases=(
        Case("one head", _mla(4, 3, 1, 2, 3, 2, 2)),
        Case("one head, one position", _mla(1, 3, 1, 2, 2, 3, 4, [6])),
        Case("four heads, d_r = 4", _mla(5, 4, 4, 3, 2, 1, 4)),
        Case("positions = arange(n)", _mla(5, 4, 2, 3, 3, 2, 2, [0, 1, 2, 3, 4])),
        Case("positions decreasing", _mla(4, 4, 3, 2, 1, 2, 4, [9, 6, 2, 0])),
        Case("repeated positions", _mla(4, 3, 2, 3, 2, 3, 2, [7, 7, 2, 7])),
        Case("every position 0 (RoPE is the identity)", _mla(3, 4, 2, 2, 3, 1, 2, [0, 0, 0])),
        Case("positions up to 10**6", _mla(3, 4, 2, 3, 2, 2, 4, [10**6, 999_983, 3])),
        Case("d_c = h * d_h (the latent as wide as the keys)", _mla(4, 5, 2, 4, 2, 3, 2)),
        Case("large scores (~1e4)", _mla(4, 4, 2, 3, 2, 3, 2, scale=40.0)),
        Case("query 0's only allowed score near -1e11 (blocked scores ~1e6)", _far_below()),
        Case("query 0's only allowed score near -1e29 (blocked scores ~1e15)", _far_below(1e15)),
        Case("num_heads as numpy.int64", lambda r: {**_mla(3, 4, 2, 2, 1, 3, 2)(r), "num_heads": np.int64(2)}),
        Case("positions as a list of ints", lambda r: {**_mla(3, 4, 2, 2, 3, 1, 2)(r), "positions": [4, 1, 8]}),
        Case("positions of dtype uint8", lambda r: {**_mla(3, 4, 2, 2, 3, 1, 2)(r),
                                                     "positions": np.array([200, 3, 17], dtype=np.uint8)}),
        Case("float32 inputs (computed in float64)", _as(lambda a: a.astype(np.float32))),
        Case("integer inputs", _as(lambda a: np.round(a * 3).astype(np.int64))),
        Case("nested-list inputs", _as(lambda a: a.tolist())),
        *(_mla_random(i) for i in range(8)),
        Case("num_heads = 0", _mla_error(num_heads=0), "error"),
        Case("num_heads = -2", _mla_error(num_heads=-2), "error"),
        Case("num_heads = True (a bool)", lambda r: {**_mla(3, 4, 1, 2, 3, 2, 2, [1, 0, 2])(r), "num_heads": True}, "error"),
        Case("num_heads = 2.0 (a float)", _mla_error(num_heads=2.0), "error"),
        Case("width not divisible by num_heads", _mla_error(num_heads=4), "error"),
        Case("w_uk wider than w_q", _mla_error(w_uk=lambda kw: np.hstack([kw["w_uk"], kw["w_uk"]])), "error"),
        Case("w_kr wider than d_r", _mla_error(w_kr=lambda kw: np.hstack([kw["w_kr"], kw["w_kr"]])), "error"),
        Case("w_dkv has too few rows", _mla_error(w_dkv=lambda kw: kw["w_dkv"][:4]), "error"),
        Case("w_uv has too many rows", _mla_error(w_uv=lambda kw: np.vstack([kw["w_uv"], kw["w_uv"]])), "error"),
        Case("w_o has too few rows", _mla_error(w_o=lambda kw: kw["w_o"][:3]), "error"),
        Case("w_o has d_model + 1 columns", _mla_error(w_o=lambda kw: np.hstack([kw["w_o"], kw["w_o"][:, :1]])), "error"),
        Case("odd d_r = 3", _mla_error(w_qr=lambda kw: np.hstack([kw["w_qr"], kw["w_qr"][:, :2]]),
                                        w_kr=lambda kw: np.hstack([kw["w_kr"], kw["w_kr"][:, :1]])), "error"),
        Case("x is 1-D", _mla_error(x=lambda kw: kw["x"][0]), "error"),
        Case("x has no rows", _mla_error(x=np.zeros((0, 5)), positions=np.zeros(0, dtype=np.int64)), "error"),
        Case("d_c = 0", _mla_error(w_dkv=np.zeros((5, 0)), w_uk=np.zeros((0, 6)), w_uv=np.zeros((0, 4))), "error"),
        Case("d_r = 0 (no RoPE columns)", _mla_error(w_qr=np.zeros((5, 0)), w_kr=np.zeros((5, 0))), "error"),
        Case("NaN in x", _mla_error(x=lambda kw: set_entry(kw["x"], (1, 2), np.nan)), "error"),
        Case("+inf in w_uk", _mla_error(w_uk=lambda kw: set_entry(kw["w_uk"], (0, 1), np.inf)), "error"),
        Case("float positions (2.5)", _mla_error(positions=np.array([4.0, 2.5, 9.0, 1.0])), "error"),
        Case("float positions of whole numbers", _mla_error(positions=np.array([4.0, 0.0, 9.0, 1.0])), "error"),
        Case("bool positions", _mla_error(positions=np.array([True, False, True, True])), "error"),
        Case("a negative position", _mla_error(positions=np.array([4, -3, 9, 1])), "error"),
        Case("positions has n + 1 entries", _mla_error(positions=np.array([4, 0, 9, 1, 2])), "error"),
        Case("an allowed score overflows", _mla_error(x=_overflowing_score), "error"),
        Case("out overflows (w_uv, w_o ~ 1e160)",
             _mla_error(x=lambda kw: _positive(kw, "x", "w_dkv")["x"],
                        w_uv=lambda kw: _positive(kw, "w_uv", "w_o", factor=1e160)["w_uv"]), "error"),
    ),
    map_what="the weights of 2 heads for 6 positions, read from out (one-hot latents and values; row = query, column = key)",
    map_inputs=_map_inputs,
    panels=lambda kw: [
        Panel(f"head {h} weights", derive=_head(h), blocked=np.triu(np.ones((6, 6), dtype=bool), 1)) for h in range(2)
    ],
    blocked_words="weight above the diagonal: a future leak",
    speed=Speed(
        what="x (n, 256), 8 heads, d_c 64, d_h 32, d_v 32, d_r 16",
        sizes=(128, 256),
        build=lambda n: _mla(n, 256, 8, 64, 32, 32, 16, list(range(n)))(np.random.default_rng(n)),
        torch=_torch_mla,
    ),
)
