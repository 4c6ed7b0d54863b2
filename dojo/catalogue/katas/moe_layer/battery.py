"""``dojo compare``'s inputs for moe_layer: edge cases, random cases, one per ValueError, the map and the speed run.

x and w_router are integer-valued throughout, so every router logit is exact and ties are ties."""

from __future__ import annotations

import numpy as np

from dojo.catalogue.batteries import Battery, Case, Panel, Speed, fixed, normal


def _ints(rng, shape, scale: float = 1.5) -> np.ndarray:
    return np.round(rng.standard_normal(shape) * scale) + 0.0


def _call(rng, n, d_model, E, d_ff, top_k, x_scale: float = 2.0, **replace) -> dict:
    call = {"x": _ints(rng, (n, d_model), x_scale), "w_router": _ints(rng, (d_model, E)),
            "w1": normal(rng, (E, d_model, d_ff)), "w2": normal(rng, (E, d_ff, d_model)), "top_k": top_k}
    call.update(replace)
    return call


def _tied_at_the_boundary(rng) -> dict:
    # experts 1, 3 and 4 share a router column: they tie for every token, and where they lead,
    # top_k = 2 must take 1 and 3
    call = _call(rng, 6, 4, 5, 3, 2)
    call["w_router"][:, 3] = call["w_router"][:, 4] = call["w_router"][:, 1]
    return call


def _unchosen_expert_overflows(rng) -> dict:
    """One expert more, a copy of expert 0's router column (it ties with expert 0 and ranks after
    it: top_k = 1 never chooses it), whose weights of 1e200 overflow its output to inf. out sums
    the chosen experts only, so it stays finite; a gate matrix times every expert gets 0 * inf."""
    call = _call(rng, 5, 3, 4, 2, 1)
    call["x"] = np.abs(call["x"]) + 1.0  # every token's x sums above 0: the copy's output is inf
    huge = np.full((1, 3, 2), 1e200)
    call["w_router"] = np.hstack([call["w_router"], call["w_router"][:, :1]])
    call["w1"] = np.concatenate([call["w1"], huge])
    call["w2"] = np.concatenate([call["w2"], huge.transpose(0, 2, 1)])
    return call


def _offset(rng, offsets, top_k=2) -> dict:
    """Column 0 of x carries each token's offset; w_router's row 0 is all 3: every logit of token
    i is shifted by 3 offsets[i]."""
    offsets = np.asarray(offsets, dtype=np.float64)
    call = _call(rng, len(offsets), 4, 5, 3, top_k)
    call["x"][:, 0] = offsets
    call["w_router"][0] = 3.0
    return call


def _unbalanced(rng) -> dict:
    # expert 2's column is far above the others for every token (x >= 1): all tokens choose it
    call = _call(rng, 8, 3, 4, 5, 1)
    call["x"] = np.abs(call["x"]) + 1.0
    call["w_router"][:, 2] = 5.0
    return call


def _dead_hidden_units(rng) -> dict:
    # x positive and half of every expert's w1 columns negative: those hidden units are relu'd to 0
    call = _call(rng, 5, 3, 3, 6, 2)
    call["x"] = np.abs(call["x"]) + 1.0
    call["w1"][:, :, ::2] = -np.abs(call["w1"][:, :, ::2]) - 0.1
    return call


def _random(i: int) -> Case:
    plan = np.random.default_rng(4000 + i)
    n, d_model, E, d_ff = (int(plan.integers(lo, hi)) for lo, hi in ((1, 9), (1, 7), (2, 9), (1, 8)))
    top_k = int(plan.integers(1, E + 1))
    return Case(f"random {i + 1}: n={n}, d_model={d_model}, E={E}, d_ff={d_ff}, top_k={top_k}",
                lambda rng: _call(rng, n, d_model, E, d_ff, top_k), "random")


def _with(build, **changes):
    """``build``'s call with some of its arguments replaced (a function of the call each)."""
    def make(rng):
        call = build(rng)
        for name, change in changes.items():
            call[name] = change(call)
        return call
    return make


def _ok(rng):
    return _call(rng, 4, 3, 4, 5, 2)


def _set(name, index, value):
    def change(call):
        a = np.array(call[name], dtype=np.float64)
        a[index] = value
        return a
    return change


def _overflowing_out(rng) -> dict:
    call = _call(rng, 3, 2, 3, 4, 2)
    call["x"] = np.abs(call["x"]) + 1.0
    call["w_router"] = np.zeros((2, 3))
    call["w1"] = (np.abs(call["w1"]) + 0.5) * 1e160
    call["w2"] = (np.abs(call["w2"]) + 0.5) * 1e160
    return call


def _map_inputs() -> dict:
    """8 tokens, E = d_model = 6 one-hot experts: expert e maps x_i to the unit vector e (x[:, 0] = 1
    and d_ff = 1), so out_i is token i's row of gates."""
    rng = np.random.default_rng(19)
    n, E = 8, 6
    x = _ints(rng, (n, E), 2.0)
    x[:, 0] = 1.0
    w_router = _ints(rng, (E, E))
    w_router[0] = 0.0
    w_router[:, 4] = w_router[:, 1]  # experts 1 and 4 tie for every token
    w1 = np.zeros((E, E, 1))
    w1[:, 0, 0] = 1.0
    w2 = np.zeros((E, 1, E))
    w2[np.arange(E), 0, np.arange(E)] = 1.0
    return {"x": x, "w_router": w_router, "w1": w1, "w2": w2, "top_k": 2}


def _unchosen(kw) -> np.ndarray:
    logits = np.asarray(kw["x"], dtype=np.float64) @ np.asarray(kw["w_router"], dtype=np.float64)
    chosen = np.argsort(-logits, axis=1, kind="stable")[:, : kw["top_k"]]
    blocked = np.ones(logits.shape, dtype=bool)
    np.put_along_axis(blocked, chosen, False, axis=1)
    return blocked


def _speed_case(n: int) -> dict:
    rng = np.random.default_rng(n)
    return _call(rng, n, 64, 8, 128, 2)


def _torch_moe(torch, kw):
    x, w_router, w1, w2 = (torch.from_numpy(kw[k]) for k in ("x", "w_router", "w1", "w2"))
    top_k = kw["top_k"]

    def call():
        logits = x @ w_router
        probs = logits.softmax(dim=1)
        chosen = torch.sort(logits, dim=1, descending=True, stable=True).indices[:, :top_k]
        gates = torch.zeros_like(logits).scatter(1, chosen, torch.gather(logits, 1, chosen).softmax(dim=1))
        experts = torch.einsum("enf,efd->end", torch.relu(torch.einsum("nd,edf->enf", x, w1)), w2)
        out = torch.einsum("ne,end->nd", gates, experts)
        mask = torch.zeros_like(logits).scatter(1, chosen, 1.0)
        return out, logits.shape[1] * (mask.mean(dim=0) * probs.mean(dim=0)).sum()

    return call


BATTERY = Battery(
    kata="moe_layer",
    outputs=("out", "aux_loss"),
    cases=(
        Case("top_k = 2 (Mixtral)", lambda r: _call(r, 6, 4, 5, 3, 2)),
        Case("top_k = 1 (Switch)", lambda r: _call(r, 6, 4, 5, 3, 1)),
        Case("top_k = E: every expert, gates the full softmax", lambda r: _call(r, 5, 3, 4, 6, 4)),
        Case("top_k = E - 1", lambda r: _call(r, 7, 5, 4, 3, 3)),
        Case("E = 1", lambda r: _call(r, 4, 3, 1, 5, 1)),
        Case("one token", lambda r: _call(r, 1, 4, 6, 3, 3)),
        Case("d_model = 1, d_ff = 1", lambda r: _call(r, 5, 1, 4, 1, 2)),
        Case("n = d_model = E = d_ff = 4", lambda r: _call(r, 4, 4, 4, 4, 2)),
        Case("a tie at the top_k boundary: the lower expert index wins", _tied_at_the_boundary),
        Case("every logit equal (w_router = 0): aux = top_k", lambda r: _call(r, 6, 3, 5, 4, 3,
                                                                              w_router=np.zeros((3, 5)))),
        Case("every token chooses expert 2 (unbalanced)", _unbalanced),
        Case("hidden units relu zeroes", _dead_hidden_units),
        Case("an expert no token chooses overflows", _unchosen_expert_overflows),
        Case("router logits near +1000", lambda r: _offset(r, [300, 310, 350, 333, 320, 301])),
        Case("router logits near -1000", lambda r: _offset(r, [-300, -310, -350, -333, -320, -301])),
        Case("router logits near +1000, top_k = 1", lambda r: _offset(r, [300, 310, 350, 333], top_k=1)),
        Case("tokens thousands apart", lambda r: _offset(r, [0, 1000, -1000, 333, -333, 0])),
        Case("many tokens over few experts (n = 40, E = 3)", lambda r: _call(r, 40, 3, 3, 4, 2)),
        Case("many tokens, top_k = 1 (n = 40, E = 4)", lambda r: _call(r, 40, 3, 4, 4, 1)),
        Case("float32 weights (computed in float64)",
             _with(_ok, w1=lambda c: c["w1"].astype(np.float32), w2=lambda c: c["w2"].astype(np.float32))),
        Case("int arrays", _with(_ok, x=lambda c: c["x"].astype(np.int64), w_router=lambda c: c["w_router"].astype(np.int64),
                                  w1=lambda c: np.round(c["w1"] * 2).astype(np.int64))),
        Case("nested lists", _with(_ok, x=lambda c: c["x"].tolist(), w_router=lambda c: c["w_router"].tolist(),
                                    w1=lambda c: c["w1"].tolist(), w2=lambda c: c["w2"].tolist())),
        Case("top_k as np.int64", _with(_ok, top_k=lambda c: np.int64(2))),
        *(_random(i) for i in range(8)),
        Case("x 1-D", _with(_ok, x=lambda c: c["x"][0]), "error"),
        Case("w_router 3-D", _with(_ok, w_router=lambda c: c["w_router"][None]), "error"),
        Case("w1 2-D", _with(_ok, w1=lambda c: c["w1"][0]), "error"),
        Case("w2 4-D", _with(_ok, w2=lambda c: c["w2"][None]), "error"),
        Case("n = 0", _with(_ok, x=lambda c: np.zeros((0, 3))), "error"),
        Case("E = 0", fixed(x=np.ones((2, 3)), w_router=np.zeros((3, 0)), w1=np.zeros((0, 3, 4)),
                            w2=np.zeros((0, 4, 3)), top_k=1), "error"),
        Case("d_ff = 0", _with(_ok, w1=lambda c: np.zeros((4, 3, 0)), w2=lambda c: np.zeros((4, 0, 3))), "error"),
        Case("w_router with d_model + 1 rows", _with(_ok, w_router=lambda c: np.vstack([c["w_router"], c["w_router"][:1]])),
             "error"),
        Case("w1 with E + 1 experts", _with(_ok, w1=lambda c: np.concatenate([c["w1"], c["w1"][:1]])), "error"),
        Case("w2's d_ff not w1's", _with(_ok, w2=lambda c: c["w2"][:, :-1]), "error"),
        Case("w2's last axis not d_model", _with(_ok, w2=lambda c: c["w2"][:, :, :-1]), "error"),
        Case("top_k = 0", _with(_ok, top_k=lambda c: 0), "error"),
        Case("top_k = E + 1", _with(_ok, top_k=lambda c: 5), "error"),
        Case("top_k = 2.0", _with(_ok, top_k=lambda c: 2.0), "error"),
        Case("top_k True", _with(_ok, top_k=lambda c: True), "error"),
        Case("NaN in x", _with(_ok, x=_set("x", (1, 2), np.nan)), "error"),
        Case("inf in w1", _with(_ok, w1=_set("w1", (2, 1, 3), np.inf)), "error"),
        Case("-inf in w_router", _with(_ok, w_router=_set("w_router", (0, 1), -np.inf)), "error"),
        Case("NaN in w2", _with(_ok, w2=_set("w2", (0, 4, 2), np.nan)), "error"),
        Case("a router logit overflows", _with(_ok, x=_set("x", (1, 0), 1e200),
                                               w_router=_set("w_router", (0, slice(None)), 1e200)), "error"),
        Case("out overflows", _overflowing_out, "error"),
    ),
    map_what=("out of 8 tokens with 6 one-hot experts (expert e returns the unit vector e), so out is the gate "
              "matrix: top_k = 2, experts 1 and 4 tie for every token (row = token, column = expert)"),
    map_inputs=_map_inputs,
    panels=lambda kw: [Panel("gates (out with one-hot experts)", (0,), _unchosen(kw))],
    blocked_words="a gate on an expert the token did not choose",
    speed=Speed(
        what="x (n, 64), 8 experts of d_ff = 128, top_k = 2",
        sizes=(256, 1024),
        build=_speed_case,
        torch=_torch_moe,
    ),
)
