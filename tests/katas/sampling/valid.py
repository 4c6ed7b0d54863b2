"""The contract of sampling, written out again apart from its solution's docstring
(solutions/sampling.py): ``check(call)`` raises ``Broken`` when one call drawn by its judge's
strategies breaks it, the cases it leaves open included (tests/meta/test_strategies.py draws them)."""

from __future__ import annotations

import numbers

import numpy as np

from tests.meta.validity import a_positive_int, finite_array, need, shaped


def check(call) -> None:
    logits = finite_array(call, "logits", 2)
    b, V = logits.shape
    u = np.asarray(call["u"], dtype=np.float64)
    shaped(u, "u", (b,))
    need(np.isfinite(u).all() and (u >= 0).all() and (u < 1).all(), f"u = {u} is not in [0, 1)")
    temperature = call.get("temperature", 1.0)
    need(isinstance(temperature, numbers.Real) and not isinstance(temperature, (bool, np.bool_))
         and np.isfinite(temperature) and temperature >= 0, f"temperature = {temperature!r} is not a finite real >= 0")
    top_k, top_p = call.get("top_k"), call.get("top_p")
    if top_k is not None:
        a_positive_int(top_k, "top_k")
    if top_p is not None:
        need(isinstance(top_p, numbers.Real) and not isinstance(top_p, (bool, np.bool_)) and 0 < top_p <= 1,
             f"top_p = {top_p!r} is not a real in (0, 1]")
    if temperature == 0:
        probs = np.zeros((b, V))
        probs[np.arange(b), np.argmax(logits, axis=1)] = 1.0
    else:
        z = logits / float(temperature)
        need(np.isfinite(z).all() and np.abs(z).max() <= 1e4, "|logits / temperature| > 1e4 is left open")
        ordered = np.sort(logits, axis=1)
        distinct = ordered[:, 1:] != ordered[:, :-1]
        zs = np.sort(z, axis=1)
        need(not (distinct & (zs[:, 1:] == zs[:, :-1])).any(),
             "two logits differ but are equal after / temperature (left open)")
        order = np.argsort(-z, axis=1, kind="stable")
        zs = np.take_along_axis(z, order, axis=1)
        keep = np.broadcast_to(np.arange(V)[None, :] < (V if top_k is None else int(top_k)), (b, V)).copy()
        w = np.where(keep, np.exp(zs - zs[:, :1]), 0.0)
        w /= w.sum(axis=1, keepdims=True)
        if top_p is not None and top_p < 1:
            sums = np.cumsum(w, axis=1)[keep]
            need(np.abs(sums - top_p).min() > 1e-9, f"top_p = {top_p!r} is within 1e-9 of a prefix sum (left open)")
            keep &= (np.cumsum(w, axis=1) - w) < top_p
        p = np.where(keep, np.exp(zs - zs[:, :1]), 0.0)
        probs = np.zeros((b, V))
        np.put_along_axis(probs, order, p / p.sum(axis=1, keepdims=True), axis=1)
    cdf = np.cumsum(probs, axis=1)
    cdf /= cdf[:, -1:]
    for r in range(b):
        positive = cdf[r][cdf[r] > 0]
        need(np.abs(positive - u[r]).min() > 1e-9, f"u[{r}] = {u[r]!r} is within 1e-9 of a positive C_t (left open)")
