"""``dojo compare``'s inputs for batched_attention: edge cases, random cases, one per ValueError, the map and the speed run."""

from __future__ import annotations

import numpy as np

from dojo.catalogue.batteries import Battery, Case, Panel, Speed, fixed, normal, set_entry


def _pad(kind, B, n, rng):
    """A (B, n) bool mask, True = padding, or None. "right"/"left": sequence b keeps
    max(1, n - 1 - b % (n - 1)) tokens; "holes": random, every sequence keeps a token; "all": holes,
    and sequence 0 is all padding; "none": all False."""
    if kind is None:
        return None
    cols = np.arange(n)
    keep = np.maximum(1, n - 1 - np.arange(B) % max(n - 1, 1))
    if kind == "right":
        return cols[None, :] >= keep[:, None]
    if kind == "left":
        return cols[None, :] < (n - keep)[:, None]
    if kind == "none":
        return np.zeros((B, n), dtype=bool)
    pad = rng.random((B, n)) < 0.4
    pad[np.arange(B), rng.integers(0, n, size=B)] = False
    if kind == "all":
        pad[0] = True
    return pad


def _ba(B, n, h, d_head, pad=None, causal=False, scale=1.0):
    def build(rng):
        E = h * d_head
        return {
            "x": normal(rng, (B, n, E), scale),
            "in_proj_weight": normal(rng, (3 * E, E)),
            "in_proj_bias": normal(rng, 3 * E, 0.3),
            "out_proj_weight": normal(rng, (E, E)),
            "out_proj_bias": normal(rng, E),
            "num_heads": h,
            "key_padding_mask": _pad(pad, B, n, rng),
            "causal": causal,
        }

    return build


def _ba_random(i: int) -> Case:
    plan = np.random.default_rng(7000 + i)
    B, n, h, d_head = (int(s) for s in plan.integers(1, 5, size=4))
    pad = [None, "right", "left", "holes"][i % 4]
    causal = bool(plan.random() < 0.5)
    return Case(f"random {i + 1}: B={B}, n={n}, heads={h}, d_head={d_head}, padding {pad or 'none'}"
                + (", causal" if causal else ""), _ba(B, n, h, d_head, pad, causal, float(plan.choice([0.3, 1.0]))), "random")


def _ba_error(**changes):
    """A valid (B=2, n=3, E=4, 2 heads, right padding) call with ``changes`` applied."""

    def build(rng):
        kw = _ba(2, 3, 2, 2, "right")(rng)
        for key, value in changes.items():
            kw[key] = value(kw) if callable(value) else value
        return kw

    return build


def _huge_padding(rng):
    kw = _ba(2, 4, 2, 2, "right")(rng)
    kw["x"][kw["key_padding_mask"]] = normal(rng, kw["x"][kw["key_padding_mask"]].shape, 1e9)
    return kw


def _far_below(rng, far=1e6):
    """Causal and right-padded, with every score about -far² (x[..., 0] up to 3 far, in_proj_weight's
    q rows 1 and k rows -1 in column 0): -1e12 by default, where a finite fill of -1e9 gives the
    blocked keys all the weight; -1e6 at far = 1e3, where a fill of -1e4 does and -1e9 does not."""
    kw = _ba(2, 3, 2, 1, "right", causal=True)(rng)
    E = kw["x"].shape[-1]
    kw["x"][..., 0] += far * np.arange(1, kw["x"].shape[1] + 1)
    kw["in_proj_weight"][:E, 0], kw["in_proj_weight"][E : 2 * E, 0] = 1.0, -1.0
    return kw


def _forms(convert):
    return lambda rng: {k: (convert(v) if isinstance(v, np.ndarray) and v.dtype != bool else v)
                        for k, v in _ba(2, 3, 2, 1, "right", True)(rng).items()}


def _score_overflow(kw):
    w = kw["in_proj_weight"].copy()
    w[0] = w[4] = 0.0
    w[0, 0] = w[4, 0] = 1e5
    return w


def _sign(a):
    return np.where(a >= 0, 1.0, -1.0)


_MAP_PAD = np.array([[False] * 5, [False, False, False, True, True]])
_MAP_BLOCKED = [np.broadcast_to(_MAP_PAD[b][None, :], (5, 5)).copy() for b in range(2)]


def _torch_batched(torch, kw):
    x = torch.from_numpy(kw["x"])
    B, n, E = x.shape
    module = torch.nn.MultiheadAttention(E, kw["num_heads"], batch_first=True, dtype=torch.float64)
    with torch.no_grad():
        module.in_proj_weight.copy_(torch.from_numpy(kw["in_proj_weight"]))
        module.in_proj_bias.copy_(torch.from_numpy(kw["in_proj_bias"]))
        module.out_proj.weight.copy_(torch.from_numpy(kw["out_proj_weight"]))
        module.out_proj.bias.copy_(torch.from_numpy(kw["out_proj_bias"]))
    module.eval()
    pad = torch.from_numpy(kw["key_padding_mask"])
    blocked = torch.ones(n, n, dtype=torch.bool).triu(1)

    def call():
        with torch.no_grad():
            return module(x, x, x, key_padding_mask=pad, attn_mask=blocked, need_weights=True,
                          average_attn_weights=False)

    return call


BATTERY = Battery(
    kata="batched_attention",
    outputs=("out", "weights"),
    cases=(
        Case("no padding mask", _ba(2, 3, 2, 3)),
        Case("right padding", _ba(3, 4, 2, 1, "right")),
        Case("left padding", _ba(3, 4, 1, 3, "left")),
        Case("left padding with causal (queries with no key)", _ba(3, 4, 2, 2, "left", True)),
        Case("a sequence that is all padding", _ba(3, 4, 3, 1, "all")),
        Case("padding holes with causal", _ba(2, 5, 2, 2, "holes", True)),
        Case("causal, no padding", _ba(2, 4, 3, 2, None, True)),
        Case("an all-False padding mask", _ba(2, 3, 2, 2, "none")),
        Case("one head", _ba(2, 3, 1, 4, "right")),
        Case("many heads (6) of width 1", _ba(2, 3, 6, 1, "right", True)),
        Case("B = n = num_heads = d_head = 2", _ba(2, 2, 2, 2, "right")),
        Case("one sequence of one token", _ba(1, 1, 2, 2)),
        Case("large scores (~1e4)", _ba(2, 3, 2, 2, "right", scale=30.0)),
        Case("padded positions hold values ~1e9", _huge_padding),
        Case("causal and padded, every allowed score far below -1e9 (about -1e12)", _far_below),
        Case("causal and padded, every allowed score far below -1e4 (about -1e6)", lambda r: _far_below(r, 1e3)),
        Case("causal given as numpy.bool_", lambda r: {**_ba(2, 3, 2, 1, "right")(r), "causal": np.bool_(True)}),
        Case("float32 inputs (computed in float64)", _forms(lambda a: a.astype(np.float32))),
        Case("positions 0.06 apart near 2**20 (lost in float32)",
             fixed(x=np.array([[[2.0**20], [2.0**20 + 0.06]]]), in_proj_weight=np.array([[2.0**-20], [1.0], [2.0**-20]]),
                   in_proj_bias=np.zeros(3), out_proj_weight=np.array([[1.0]]), out_proj_bias=np.zeros(1),
                   num_heads=1, key_padding_mask=None, causal=False)),
        Case("nested-list inputs", _forms(lambda a: a.tolist())),
        *(_ba_random(i) for i in range(8)),
        Case("num_heads = 0", _ba_error(num_heads=0), "error"),
        Case("num_heads = -2", _ba_error(num_heads=-2), "error"),
        Case("num_heads = True (a bool)", _ba_error(num_heads=True), "error"),
        Case("num_heads = 2.0 (a float)", _ba_error(num_heads=2.0), "error"),
        Case("num_heads does not divide E", _ba_error(num_heads=3), "error"),
        Case("x is 2-D", _ba_error(x=lambda kw: kw["x"][0], key_padding_mask=None), "error"),
        Case("x is 4-D", _ba_error(x=lambda kw: kw["x"][None], key_padding_mask=None), "error"),
        Case("x has no sequences (B = 0)", _ba_error(x=np.zeros((0, 3, 4)), key_padding_mask=None), "error"),
        Case("x has no positions (n = 0)", _ba_error(x=np.zeros((2, 0, 4)), key_padding_mask=None), "error"),
        Case("in_proj_weight of shape (E, E)", _ba_error(in_proj_weight=lambda kw: kw["in_proj_weight"][:4]), "error"),
        Case("in_proj_weight of shape (E, 3E)", _ba_error(in_proj_weight=lambda kw: kw["in_proj_weight"].reshape(4, 12)), "error"),
        Case("in_proj_bias of shape (E,)", _ba_error(in_proj_bias=lambda kw: kw["in_proj_bias"][:4]), "error"),
        Case("out_proj_weight of shape (E, E + 1)", _ba_error(out_proj_weight=lambda kw: np.hstack([kw["out_proj_weight"], kw["out_proj_weight"][:, :1]])), "error"),
        Case("out_proj_bias of shape (1, E)", _ba_error(out_proj_bias=lambda kw: kw["out_proj_bias"][None]), "error"),
        Case("padding mask of 0/1 integers", _ba_error(key_padding_mask=lambda kw: kw["key_padding_mask"].astype(np.int64)), "error"),
        Case("padding mask of shape (n,), shared by the batch", _ba_error(key_padding_mask=np.array([False, False, True])), "error"),
        Case("padding mask of shape (1, n)", _ba_error(key_padding_mask=np.array([[False, False, True]])), "error"),
        Case("padding mask of shape (B, n + 1)", _ba_error(key_padding_mask=np.zeros((2, 4), dtype=bool)), "error"),
        Case("NaN in x", _ba_error(x=lambda kw: set_entry(kw["x"], (1, 0, 2), np.nan)), "error"),
        Case("inf in x at a padded position", _ba_error(x=lambda kw: set_entry(kw["x"], (1, 2, 0), np.inf)), "error"),
        Case("+inf in in_proj_bias", _ba_error(in_proj_bias=lambda kw: set_entry(kw["in_proj_bias"], 5, np.inf)), "error"),
        Case("a projection overflows", _ba_error(x=lambda kw: set_entry(kw["x"], (0, 0), 1e155 * _sign(kw["x"][0, 0])),
                                                  in_proj_weight=lambda kw: set_entry(kw["in_proj_weight"], 8, 1e155 * _sign(kw["x"][0, 0])),
                                                  key_padding_mask=None), "error"),
        Case("an allowed score overflows", _ba_error(x=lambda kw: set_entry(kw["x"], (0, 1, 0), 1e150),
                                                      in_proj_weight=_score_overflow, key_padding_mask=None), "error"),
        Case("out overflows", _ba_error(out_proj_weight=lambda kw: 1.7e308 * _sign(kw["out_proj_weight"]),
                                        in_proj_bias=lambda kw: np.concatenate([kw["in_proj_bias"][:8], 10.0 * _sign(kw["out_proj_weight"][0])]),
                                        in_proj_weight=lambda kw: np.vstack([kw["in_proj_weight"][:8], np.zeros((4, 4))]),
                                        key_padding_mask=None), "error"),
    ),
    map_what="weights of 2 heads for 2 sequences of 5 positions (not causal); sequence 1 ends in 2 padding "
             "tokens, so its columns 3 and 4 must be 0 (row = query, column = key)",
    map_inputs=lambda: {**_ba(2, 5, 2, 2, None, False, 1.2)(np.random.default_rng(5)), "key_padding_mask": _MAP_PAD.copy()},
    panels=lambda kw: [Panel(f"sequence {b}, head {h} weights", (1, b, h), _MAP_BLOCKED[b]) for b in range(2) for h in range(2)],
    blocked_words="weight on a padded key (sequence 1, columns 3 and 4)",
    speed=Speed(
        what="x (4, n, 256), 8 heads of width 32, right padding, causal",
        sizes=(64, 128),
        build=lambda n: _ba(4, n, 8, 32, "right", True)(np.random.default_rng(n)),
        torch=_torch_batched,
    ),
)
