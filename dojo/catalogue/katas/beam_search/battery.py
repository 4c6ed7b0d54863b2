"""``dojo compare``'s inputs for beam_search: edge cases, random cases, one per ValueError, the map and the speed run."""

from __future__ import annotations

import numpy as np

from dojo.catalogue.batteries import Battery, Case, Panel, Speed, fixed


def _call(log_probs, start, eos, beam_width, max_len, length_penalty=0.0) -> dict:
    lp = np.asarray(log_probs, dtype=np.float64) if not isinstance(log_probs, list) else log_probs
    return {"log_probs": lp, "start": start, "eos": eos, "beam_width": beam_width, "max_len": max_len,
            "length_penalty": length_penalty}


def _log_softmax(rng, V: int, scale: float) -> np.ndarray:
    z = rng.standard_normal((V, V)) * scale
    z -= z.max(axis=1, keepdims=True)
    return np.minimum(z - np.log(np.exp(z).sum(axis=1, keepdims=True)), 0.0) + 0.0


def _quarters(rng, V: int, K: int = 4) -> np.ndarray:
    return -rng.integers(0, K + 1, size=(V, V)) / 4.0 + 0.0


#: A small model, three tokens (multiples of 1/4: every sum exact).
_SMALL = np.array([[-2.25, -0.5, -1.25], [-1.5, -1.75, -0.5], [-0.75, -1.0, -2.25]])
#: Ties everywhere: after start 1, tokens 0 (EOS) and 2 tie at -0.25 ... every sum exact.
_TIED = np.array([[-0.5, -0.25, -0.25], [-0.25, -0.5, 0.0], [-0.25, 0.0, -0.5]])
#: EOS (0) is likely everywhere: B hypotheses finish at once, better ones come later.
_EARLY = np.array([[-2.0, -0.25, -3.0], [-0.5, -1.0, -0.25], [-0.5, -0.25, -1.0]])
#: EOS (0) likely from tokens 1 and 2: at B = 2 EOS candidates fall at ranks 1 and 2 or lower.
_EOS_HEAVY = np.array([[-0.25, -2.0, -2.5], [-0.5, -1.0, -3.0], [-0.75, -2.0, -1.25]])
#: EOS (0) first at step 1: the second live beam (token 2) leads to the better hypothesis.
_STARVED = np.array([[-0.25, -0.5, -0.75], [-2.0, -2.0, -2.0], [-0.25, -3.0, -3.0]])
#: EOS (3) very unlikely: every hypothesis ends unfinished at max_len.
_NO_EOS = np.array([[-1.0, -0.5, -2.0, -30.0], [-0.75, -1.25, -0.5, -30.0],
                    [-0.25, -2.0, -1.0, -30.0], [-1.0, -1.0, -1.0, -30.0]])
#: Quarters with a log-prob of 0: the zero-cost path ties with many others.
_ZEROS = np.array([[0.0, -0.25, 0.0, -0.5], [-0.25, 0.0, 0.0, -0.25], [0.0, 0.0, -0.5, -0.25],
                   [-0.5, -0.25, -0.25, 0.0]])


def _random(i: int) -> Case:
    plan = np.random.default_rng(3000 + i)
    V, B, max_len = int(plan.integers(2, 9)), int(plan.integers(1, 6)), int(plan.integers(3, 9))
    alpha = float(plan.choice([0.0, 0.0, 1.0, 0.6, 2.0, -0.5]))
    eos = int(plan.integers(0, V))
    start = int(plan.integers(0, V))
    kind = ["generic", "quarters", "eos often"][i % 3]

    def build(rng):
        if kind == "quarters":
            lp = _quarters(rng, V, 6)
        else:
            lp = _log_softmax(rng, V, 2.0)
            if kind == "eos often":
                lp[:, eos] = -rng.uniform(0.05, 0.8, size=V)
        return _call(lp, start, eos, B, max_len, alpha)

    return Case(f"random {i + 1}: {kind}, V={V}, B={B}, max_len={max_len}, length_penalty={alpha:g}",
                build, "random")


def _map_inputs() -> dict:
    rng = np.random.default_rng(38)  # a seed whose compared scores are all clear of each other
    lp = _log_softmax(rng, 12, 1.5)
    lp[:, 11] = -rng.uniform(1.5, 4.0, size=12)  # EOS = 11: hypotheses end at steps 3 to 10
    return _call(lp, 0, 11, 6, 10, 0.6)


def _speed_case(n: int) -> dict:
    rng = np.random.default_rng(n)
    lp = _log_softmax(rng, n, 3.0)
    lp[:, 1] -= 3.0  # EOS = 1, less likely than most: some hypotheses finish, most run on
    return _call(lp, 0, 1, 8, 32, 1.0)


def _torch_beam(torch, kw):
    lp = torch.from_numpy(np.asarray(kw["log_probs"], dtype=np.float64))
    V, B, eos, alpha = lp.shape[0], kw["beam_width"], kw["eos"], kw["length_penalty"]

    def call():
        raw, last, seqs, finished = torch.zeros(1, dtype=torch.float64), torch.tensor([kw["start"]]), [[]], []
        for step in range(1, kw["max_len"] + 1):
            top, order = torch.sort((raw[:, None] + lp[last]).reshape(-1), descending=True, stable=True)
            tokens, beams = order[: 2 * B] % V, order[: 2 * B] // V
            keep = (tokens != eos).nonzero()[:B, 0]
            for r in (tokens[:B] == eos).nonzero()[:, 0].tolist():
                finished.append((top[r].item() / step ** alpha, seqs[beams[r]] + [eos]))
            seqs = [seqs[b] + [t] for b, t in zip(beams[keep].tolist(), tokens[keep].tolist())]
            raw, last = top[keep], tokens[keep]
        pool = finished + [(s / kw["max_len"] ** alpha, q) for s, q in zip(raw.tolist(), seqs)]
        return sorted(pool, key=lambda h: -h[0])[:B]

    return call


def _running_probability(kw):
    """exp of the running raw score along each returned hypothesis, 0 after its end: row =
    hypothesis, column = step."""
    lp = np.asarray(kw["log_probs"], dtype=np.float64)

    def derive(outputs):
        sequences = outputs[0]
        out = np.zeros((len(sequences), kw["max_len"]))
        for i, s in enumerate(sequences):
            prev, total = kw["start"], 0.0
            for j, v in enumerate(s):
                total += lp[prev, int(v)]
                out[i, j], prev = np.exp(total), int(v)
        return out

    return derive


BATTERY = Battery(
    kata="beam_search",
    outputs=("sequences", "scores"),
    cases=(
        Case("a small model: V=3, B=2, max_len=4", fixed(**_call(_SMALL, 0, 2, 2, 4))),
        Case("ties everywhere, B=2", fixed(**_call(_TIED, 1, 0, 2, 3))),
        Case("ties everywhere, B=3, length_penalty 1", fixed(**_call(_TIED, 1, 0, 3, 4, 1.0))),
        Case("log-probs of 0: many exact ties", fixed(**_call(_ZEROS, 0, 3, 3, 4))),
        Case("log-probs of 0, length_penalty 2", fixed(**_call(_ZEROS, 1, 3, 2, 4, 2.0))),
        Case("V = 1: start = eos = 0", fixed(**_call(np.array([[-0.5]]), 0, 0, 3, 5))),
        Case("start == eos", fixed(**_call(_SMALL, 2, 2, 2, 3))),
        Case("B = 1 is greedy", fixed(**_call(_SMALL, 0, 2, 1, 4))),
        Case("EOS candidates ranked B or lower are dropped", fixed(**_call(_EOS_HEAVY, 1, 0, 2, 4))),
        Case("EOS candidates ranked B or lower, B=3", fixed(**_call(_EOS_HEAVY, 2, 0, 3, 3))),
        Case("an EOS ranked first does not cost a live beam", fixed(**_call(_STARVED, 0, 0, 2, 3))),
        Case("B finished at step 2, better ones later (alpha 0)", fixed(**_call(_EARLY, 0, 0, 2, 6))),
        Case("B finished early, alpha 1: a longer one wins", fixed(**_call(_EARLY, 0, 0, 2, 6, 1.0))),
        Case("alpha 2 favours long hypotheses", fixed(**_call(_EOS_HEAVY, 1, 0, 2, 5, 2.0))),
        Case("alpha -0.5 favours short ones", fixed(**_call(_SMALL, 0, 2, 3, 5, -0.5))),
        Case("EOS never likely: all unfinished at max_len", fixed(**_call(_NO_EOS, 0, 3, 3, 4))),
        Case("unfinished and finished together, alpha 0.6", fixed(**_call(_SMALL, 1, 0, 3, 3, 0.6))),
        Case("B larger than V", fixed(**_call(_SMALL, 0, 2, 5, 3))),
        Case("max_len = 1", fixed(**_call(_SMALL, 1, 2, 2, 1))),
        Case("every path kept: B = V^max_len", fixed(**_call(_TIED, 0, 1, 9, 2, 0.6))),
        Case("nested-list log_probs", fixed(log_probs=[[-0.25, -1.5], [-0.75, -0.5]], start=0, eos=1,
                                             beam_width=2, max_len=3, length_penalty=0.0)),
        Case("float32 log_probs (computed in float64)",
             lambda r: _call(_log_softmax(r, 4, 1.0).astype(np.float32), 0, 3, 2, 4, 1.0)),
        Case("NumPy scalars: int32 tokens, int64 B, float64 alpha",
             fixed(**_call(_SMALL, np.int32(0), np.int32(2), np.int64(2), np.int64(4), np.float64(0.6)))),
        Case("integer length_penalty 1", fixed(**_call(_EOS_HEAVY, 2, 0, 2, 4, 1))),
        *(_random(i) for i in range(9)),
        Case("log_probs 1-D", fixed(**_call(np.array([-1.0, -2.0]), 0, 1, 2, 3)), "error"),
        Case("log_probs 3-D", fixed(**_call(-np.ones((1, 2, 2)), 0, 1, 2, 3)), "error"),
        Case("log_probs not square", fixed(**_call(-np.ones((2, 3)), 0, 1, 2, 3)), "error"),
        Case("V = 0", fixed(**_call(np.zeros((0, 0)), 0, 0, 2, 3)), "error"),
        Case("NaN in log_probs", fixed(**_call(np.array([[-1.0, np.nan], [-1.0, -1.0]]), 0, 1, 2, 3)), "error"),
        Case("-inf in log_probs", fixed(**_call(np.array([[-1.0, -np.inf], [-1.0, -1.0]]), 0, 1, 2, 3)), "error"),
        Case("a positive log-prob", fixed(**_call(np.array([[-1.0, 0.5], [-1.0, -1.0]]), 0, 1, 2, 3)), "error"),
        Case("start = -1", fixed(**_call(_SMALL, -1, 2, 2, 3)), "error"),
        Case("start = V", fixed(**_call(_SMALL, 3, 2, 2, 3)), "error"),
        Case("eos True", fixed(**_call(_SMALL, 0, True, 2, 3)), "error"),
        Case("eos = 1.0", fixed(**_call(_SMALL, 0, 1.0, 2, 3)), "error"),
        Case("beam_width = 0", fixed(**_call(_SMALL, 0, 2, 0, 3)), "error"),
        Case("beam_width True", fixed(**_call(_SMALL, 0, 2, True, 3)), "error"),
        Case("max_len = 0", fixed(**_call(_SMALL, 0, 2, 2, 0)), "error"),
        Case("max_len = 2.0", fixed(**_call(_SMALL, 0, 2, 2, 2.0)), "error"),
        Case("length_penalty NaN", fixed(**_call(_SMALL, 0, 2, 2, 3, np.nan)), "error"),
        Case("length_penalty True", fixed(**_call(_SMALL, 0, 2, 2, 3, True)), "error"),
        Case("length_penalty None", fixed(**_call(_SMALL, 0, 2, 2, 3, None)), "error"),
    ),
    map_what="the running probability (exp of the summed log-probs) along each of the 6 best hypotheses of a 12-token bigram model, EOS = 11, max_len 10, length_penalty 0.6 (row = hypothesis, best first; column = step; 0 after its end)",
    map_inputs=_map_inputs,
    panels=lambda kw: [Panel("running probability", derive=_running_probability(kw), distribution=False)],
    blocked_words="a running score past the end of its hypothesis",
    speed=Speed(
        what="log_probs of shape (n, n), B = 8, max_len = 32, length_penalty 1",
        sizes=(256, 1024),
        build=_speed_case,
        torch=_torch_beam,
    ),
    tolerance="beam_search",
)
