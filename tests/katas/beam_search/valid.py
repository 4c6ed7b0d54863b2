"""The contract of beam_search, written out again apart from its solution's docstring
(solutions/beam_search.py): ``check(call)`` raises ``Broken`` when one call drawn by its judge's
strategies breaks it, the cases it leaves open included (tests/meta/test_strategies.py draws them):
two compared scores within 1e-9 but not equal, an exact tie of scores that are not sums of
multiples of 1/4, or with alpha != 0 an exact tie of final scores of different lengths."""

from __future__ import annotations

import numbers

import numpy as np

from tests.meta.validity import a_positive_int, finite_array, need


def _token(value, what: str, V: int) -> int:
    need(isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_)) and 0 <= value < V,
         f"{what} = {value!r} is not an int in [0, {V})")
    return int(value)


def check(call) -> None:
    lp = finite_array(call, "log_probs", 2)
    V = lp.shape[0]
    need(lp.shape == (V, V), f"log_probs has shape {lp.shape}, not square")
    need((lp <= 0).all(), "log_probs has a positive entry")
    start, eos = _token(call["start"], "start", V), _token(call["eos"], "eos", V)
    B, max_len = a_positive_int(call["beam_width"], "beam_width"), a_positive_int(call["max_len"], "max_len")
    alpha = call.get("length_penalty", 0.0)
    need(isinstance(alpha, numbers.Real) and not isinstance(alpha, (bool, np.bool_)) and np.isfinite(alpha),
         f"length_penalty = {alpha!r} is not a finite real")
    quarters = bool(np.all(lp * 4 == np.round(lp * 4)) and lp.min() >= -1e6)

    def compare(a, b, same_length, where):
        if a == b:
            need(quarters, f"an exact tie of {where} scores {a!r} that are not sums of quarters (left open)")
            need(same_length or alpha == 0, f"with alpha {alpha}, final scores {a!r} tie at different lengths (left open)")
        else:
            need(abs(a - b) > 1e-9 * max(1.0, abs(a), abs(b)), f"{where} scores {a!r} and {b!r} within 1e-9 (left open)")

    # the search, step by step, as the contract states it (a plain loop over the rank)
    beams = [((), 0.0, start)]
    hypotheses = []  # (final, length)
    for step in range(1, max_len + 1):
        # every (beam i, token v) candidate's raw score, row by row; a stable sort of the negated
        # scores ranks them by score, then i, then v (the same doubles as adding one by one)
        raws = np.array([raw for _, raw, _ in beams])[:, None] + lp[[last for _, _, last in beams]]
        flat = raws.ravel()
        order = np.argsort(-flat, kind="stable")
        nxt, looked = [], 0
        for rank, index in enumerate(order.tolist()):
            i, v = divmod(index, V)
            raw = float(flat[index])
            looked = rank + 1
            if v == eos:
                if rank < B:
                    hypotheses.append((raw / step ** alpha, step))
            else:
                nxt.append((beams[i][0] + (v,), raw, v))
                if len(nxt) == B:
                    break
        shown = flat[order[: looked + 1]].tolist()
        for a, b in zip(shown[:-1], shown[1:]):
            compare(a, b, True, "raw")
        beams = nxt
        if not beams:
            break
        if step == max_len:
            hypotheses += [(raw / step ** alpha, step) for _, raw, _ in beams]
    ranked = sorted(hypotheses, key=lambda h: -h[0])[: B + 1]
    for (a, la), (b, lb) in zip(ranked[:-1], ranked[1:]):
        compare(a, b, la == lb, "final")
