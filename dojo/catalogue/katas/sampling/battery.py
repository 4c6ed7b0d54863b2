"""``dojo compare``'s inputs for sampling: edge cases, random cases, one per ValueError, the map and the speed run."""

from __future__ import annotations

import numpy as np

from dojo.catalogue.batteries import Battery, Case, Panel, Speed, fixed, normal


def _call(logits, u, temperature=1.0, top_k=None, top_p=None) -> dict:
    return {"logits": np.asarray(logits, dtype=np.float64) if not isinstance(logits, list) else logits,
            "u": u, "temperature": temperature, "top_k": top_k, "top_p": top_p}


def _tied():
    # row 0: three tokens tied at 3.0 (1, 2, 4); row 1: three tied at 2.0 (0, 2, 3)
    return np.array([[1.0, 3.0, 3.0, 0.5, 3.0], [2.0, -1.0, 2.0, 2.0, 0.0]])


def _random(i: int) -> Case:
    plan = np.random.default_rng(2000 + i)
    b, V = int(plan.integers(1, 5)), int(plan.integers(2, 12))
    temperature = float(plan.choice([0.5, 0.7, 1.0, 1.5]))
    top_k = [None, 1, 2, 3, V - 1, V, V + 2][int(plan.integers(0, 7))]
    top_p = [None, 0.5, 0.8, 0.93, 1.0][int(plan.integers(0, 5))]
    scale = float(plan.choice([0.3, 1.0, 3.0]))

    def build(rng):
        return _call(normal(rng, (b, V), scale), np.round(rng.uniform(0.01, 0.97, size=b), 3),
                     temperature, top_k, top_p)

    return Case(f"random {i + 1}: b={b}, V={V}, temperature={temperature:g}, top_k={top_k}, top_p={top_p}",
                build, "random")


def _map_inputs() -> dict:
    rng = np.random.default_rng(17)
    logits = normal(rng, (8, 12), 2.0)
    logits[3, [2, 5, 7]] = logits[3].max() + 1.0  # a three-way tie at the top
    return _call(logits, np.round(rng.uniform(0.05, 0.95, size=8), 3), 0.8, 6, 0.9)


def _speed_case(n: int) -> dict:
    rng = np.random.default_rng(n)
    b = 64
    return _call(normal(rng, (b, n), 3.0), np.round(rng.uniform(0.01, 0.99, size=b), 4), 0.8, 50, 0.9)


def _torch_sample(torch, kw):
    z = torch.from_numpy(kw["logits"]) / kw["temperature"]
    u = torch.from_numpy(np.asarray(kw["u"], dtype=np.float64))

    def call():
        s, order = torch.sort(z, dim=1, descending=True, stable=True)
        s[:, kw["top_k"]:] = -float("inf")
        w = s.softmax(dim=1)
        remove = (w.cumsum(dim=1) - w) >= kw["top_p"]
        remove[:, 0] = False
        s = s.masked_fill(remove, -float("inf"))
        probs = torch.full_like(z, -float("inf")).scatter_(1, order, s).softmax(dim=1)
        cdf = probs.cumsum(dim=1)
        return torch.searchsorted(cdf / cdf[:, -1:], u[:, None], right=True), probs

    return call


def _filtered(kw):
    """True on the tokens top_k and top_p filter out (probability exactly 0), for temperature > 0."""
    z = np.asarray(kw["logits"], dtype=np.float64) / kw["temperature"]
    order = np.argsort(-z, axis=1, kind="stable")
    zs = np.take_along_axis(z, order, axis=1)
    keep = np.broadcast_to(np.arange(z.shape[1])[None, :] < (kw["top_k"] or z.shape[1]), z.shape).copy()
    w = np.where(keep, np.exp(zs - zs[:, :1]), 0.0)
    w /= w.sum(axis=1, keepdims=True)
    keep &= (np.cumsum(w, axis=1) - w) < kw["top_p"]
    filtered = np.empty_like(keep)
    np.put_along_axis(filtered, order, ~keep, axis=1)
    return filtered


BATTERY = Battery(
    kata="sampling",
    outputs=("tokens", "probs"),
    cases=(
        Case("plain softmax, no filter", lambda r: _call(normal(r, (3, 6), 1.0), np.array([0.1, 0.5, 0.9]))),
        Case("temperature 0.5", lambda r: _call(normal(r, (2, 5), 1.0), np.array([0.3, 0.7]), 0.5)),
        Case("temperature 2", lambda r: _call(normal(r, (2, 5), 1.0), np.array([0.3, 0.7]), 2.0)),
        Case("integer temperature 3", lambda r: _call(normal(r, (2, 5), 2.0), np.array([0.45, 0.8]), 3)),
        Case("top_k = 1", lambda r: _call(normal(r, (3, 6), 1.0), np.array([0.2, 0.6, 0.95]), 1.0, 1)),
        Case("top_k = 3", lambda r: _call(normal(r, (3, 6), 1.0), np.array([0.2, 0.6, 0.95]), 1.0, 3)),
        Case("top_k = V - 1", fixed(**_call(np.array([[0.5, 2.0, 1.0, -1.0], [3.0, 1.0, 0.0, 2.0]]),
                                            np.array([0.0, 0.99]), 1.0, 3))),
        Case("top_k = V", fixed(**_call(np.array([[0.5, 2.0, 1.0, -1.0], [3.0, 1.0, 0.0, 2.0]]),
                                        np.array([0.95, 0.99]), 1.0, 4))),
        Case("top_k > V keeps all", fixed(**_call(np.array([[0.5, 2.0, 1.0, -1.0]]), np.array([0.97]), 1.0, 10))),
        Case("top_k = 2 with a three-way tie at the top", fixed(**_call(_tied(), np.array([0.0, 0.6]), 1.0, 2))),
        Case("top_k = 4 with a tie at the boundary",
             fixed(**_call(np.array([[3.0, 1.0, 2.0, 1.0, 1.0, 0.0]]), np.array([0.999]), 1.0, 4))),
        Case("top_p = 0.7: the token crossing it stays",
             fixed(**_call(np.array([[2.0, 1.0, 0.0, -1.0]]), np.array([0.85]), 1.0, None, 0.7))),
        Case("top_p = 0.9", lambda r: _call(normal(r, (3, 8), 2.0), np.array([0.05, 0.5, 0.9]), 1.0, None, 0.9)),
        Case("top_p = 0.5 after top_k = 3: measured on the kept tokens",
             fixed(**_call(np.array([[1.0, 0.9, 0.8, 0.7, 0.6, 0.5]]), np.array([0.6]), 1.0, 3, 0.5))),
        Case("top_k = 2 then top_p = 0.7",
             fixed(**_call(np.array([[3.0, 2.0, 1.0, 0.0, -1.0]]), np.array([0.5]), 1.0, 2, 0.7))),
        Case("top_p = 1 keeps every token", lambda r: _call(normal(r, (2, 5), 1.0), np.array([0.2, 0.98]), 1.0, None, 1.0)),
        Case("greedy (temperature 0) with ties", fixed(**_call(_tied(), np.array([0.99, 0.0]), 0.0, 3, 0.5))),
        Case("greedy, one token", fixed(**_call(np.array([[4.0], [-2.0]]), np.array([0.3, 0.9]), 0.0))),
        Case("V = 1", fixed(**_call(np.array([[4.0], [-2.0], [0.0]]), np.array([0.0, 0.5, 0.99]), 0.7, 1, 0.3))),
        Case("u = 0 with token 0 filtered out",
             fixed(**_call(np.array([[-1.0, 2.0, 1.0], [-5.0, 0.0, 0.5]]), np.array([0.0, 0.0]), 1.0, 2))),
        Case("u = 0 lands on the lowest-index kept token",
             fixed(**_call(np.array([[1.0, -3.0, 2.0, 0.0]]), np.array([0.0]), 1.0, 3))),
        Case("u near 1 lands on the highest-index kept token",
             fixed(**_call(np.array([[1.0, 2.0, -3.0, 0.0]]), np.array([0.999]), 1.0, 3))),
        Case("the CDF runs in token order, not rank order",
             fixed(**_call(np.array([[0.0, 2.0, 1.0], [1.0, 0.0, 3.0]]), np.array([0.2, 0.05]), 1.0))),
        Case("large logits (~1e3): exp overflows unshifted",
             fixed(**_call(np.array([[1000.0, 999.0, 995.0], [-800.0, -801.0, -799.5]]), np.array([0.5, 0.4])))),
        Case("rows 5000 apart", fixed(**_call(np.array([[5000.0, 4999.0, 4998.5], [0.0, 1.0, -0.5]]),
                                             np.array([0.3, 0.6])))),
        Case("tiny kept probabilities (1e-22, 1e-44)",
             fixed(**_call(np.array([[0.0, -50.0, -100.0, 30.0]]), np.array([0.5])))),
        Case("tiny probabilities after top_k",
             fixed(**_call(np.array([[0.0, -40.0, 25.0, -60.0, 10.0]]), np.array([0.9]), 1.0, 4))),
        Case("float32 logits (computed in float64)",
             lambda r: _call(normal(r, (2, 5), 2.0).astype(np.float32), np.array([0.4, 0.8]), 0.9, 4, 0.95)),
        Case("nested-list logits, list u", fixed(logits=[[0.5, -1.0, 2.0], [2.0, 2.0, -7.25]], u=[0.5, 0.25],
                                                  temperature=1.0, top_k=2, top_p=None)),
        Case("NumPy scalars: top_k int32, top_p float64",
             fixed(**_call(np.array([[0.5, 2.0, 1.0, -1.0]]), np.array([0.6]), np.float64(0.8), np.int32(3),
                           np.float64(0.9)))),
        Case("NumPy scalars: temperature float32, top_p float32",
             fixed(**_call(np.array([[0.5, 2.0, 1.0, -1.0]]), np.array([0.6]), np.float32(0.5), None,
                           np.float32(0.75)))),
        Case("NumPy scalars: temperature int64",
             fixed(**_call(np.array([[0.5, 2.0, 1.0, -1.0]]), np.array([0.3]), np.int64(2)))),
        *(_random(i) for i in range(8)),
        Case("logits 1-D", fixed(**_call(np.array([1.0, 2.0]), np.array([0.5]))), "error"),
        Case("logits 3-D", fixed(**_call(np.ones((1, 2, 3)), np.array([0.5]))), "error"),
        Case("V = 0", fixed(**_call(np.zeros((2, 0)), np.array([0.5, 0.5]))), "error"),
        Case("b = 0", fixed(**_call(np.zeros((0, 3)), np.zeros(0))), "error"),
        Case("u a scalar", fixed(**_call(np.array([[1.0, 2.0]]), 0.5)), "error"),
        Case("u of shape (b + 1,)", fixed(**_call(np.array([[1.0, 2.0]]), np.array([0.5, 0.5]))), "error"),
        Case("NaN in logits", fixed(**_call(np.array([[1.0, np.nan]]), np.array([0.5]))), "error"),
        Case("inf in logits", fixed(**_call(np.array([[1.0, np.inf]]), np.array([0.5]))), "error"),
        Case("NaN in u", fixed(**_call(np.array([[1.0, 2.0]]), np.array([np.nan]))), "error"),
        Case("u = 1", fixed(**_call(np.array([[1.0, 2.0]]), np.array([1.0]))), "error"),
        Case("u < 0", fixed(**_call(np.array([[1.0, 2.0]]), np.array([-0.1]))), "error"),
        Case("temperature < 0", fixed(**_call(np.array([[1.0, 2.0]]), np.array([0.5]), -1.0)), "error"),
        Case("temperature NaN", fixed(**_call(np.array([[1.0, 2.0]]), np.array([0.5]), np.nan)), "error"),
        Case("temperature True", fixed(**_call(np.array([[1.0, 2.0]]), np.array([0.5]), True)), "error"),
        Case("top_k = 0", fixed(**_call(np.array([[1.0, 2.0]]), np.array([0.5]), 1.0, 0)), "error"),
        Case("top_k = -1", fixed(**_call(np.array([[1.0, 2.0]]), np.array([0.5]), 1.0, -1)), "error"),
        Case("top_k = 2.0", fixed(**_call(np.array([[1.0, 2.0]]), np.array([0.5]), 1.0, 2.0)), "error"),
        Case("top_k True", fixed(**_call(np.array([[1.0, 2.0]]), np.array([0.5]), 1.0, True)), "error"),
        Case("top_p = 0", fixed(**_call(np.array([[1.0, 2.0]]), np.array([0.5]), 1.0, None, 0.0)), "error"),
        Case("top_p = 1.5", fixed(**_call(np.array([[1.0, 2.0]]), np.array([0.5]), 1.0, None, 1.5)), "error"),
        Case("top_p True", fixed(**_call(np.array([[1.0, 2.0]]), np.array([0.5]), 1.0, None, True)), "error"),
        Case("logits / temperature overflows",
             fixed(**_call(np.array([[1e300, 2.0]]), np.array([0.5]), 1e-10)), "error"),
    ),
    map_what="probs of an 8×12 logits at temperature 0.8, top_k=6, top_p=0.9 (row = one row of the batch, column = token; row 3: a three-way tie at the top)",
    map_inputs=_map_inputs,
    panels=lambda kw: [Panel("probs", (1,), _filtered(kw))],
    blocked_words="probability on a filtered token",
    speed=Speed(
        what="logits of shape (64, n), temperature 0.8, top_k=50, top_p=0.9",
        sizes=(1024, 4096),
        build=_speed_case,
        torch=_torch_sample,
    ),
    tolerance="sampling",
)
