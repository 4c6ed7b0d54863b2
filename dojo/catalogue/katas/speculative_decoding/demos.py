"""The demonstrations behind the follow-ups of speculative_decoding: the accept/resample rule emits
exactly p, the expected tokens per step, and the residual's mass."""

from __future__ import annotations

import numpy as np

from dojo.catalogue.demos import Shown, demo
from dojo.text.messages import t

#: One target and one draft distribution over four tokens (stated inputs).
P = np.array([0.5, 0.3, 0.15, 0.05])
Q = np.array([0.2, 0.5, 0.1, 0.2])


def _say(slug: str, **params) -> str:
    """One line of a demonstration, in the tool's language (``kata.speculative_decoding.demo.<slug>``)."""
    return t(f"kata.speculative_decoding.demo.{slug}", **params)


def _shown(a) -> str:
    return np.array2string(np.asarray(a), precision=3, suppress_small=True)


@demo("speculative_exact")
def speculative_exact() -> Shown:
    accepted = Q * np.minimum(1.0, P / Q)        # proposed and accepted: min(p, q)
    rejected = 1.0 - accepted.sum()              # the chance of a rejection
    residual = np.maximum(P - Q, 0.0)
    emitted = accepted + rejected * residual / residual.sum()
    from_p = accepted + rejected * P             # resampling from p after a rejection instead
    lines = [
        _say("exact-rows", p=_shown(P), q=_shown(Q)),
        _say("exact-accepted", accepted=_shown(accepted)),
        _say("exact-rejected", rejected=f"{rejected:.3f}", residual=_shown(residual / residual.sum())),
        _say("exact-emitted", emitted=_shown(emitted)),
        _say("exact-from-p", from_p=_shown(from_p)),
    ]
    return Shown(lines, {"p": P, "emitted": emitted, "from_p": from_p, "rejected": float(rejected)})


@demo("speculative_expected_tokens")
def speculative_expected_tokens() -> Shown:
    alpha = 0.8
    rows = []
    lines = [_say("tokens-alpha", alpha=alpha)]
    for k in (1, 2, 4, 8, 16):
        formula = (1 - alpha ** (k + 1)) / (1 - alpha)
        summed = float(sum(alpha**j for j in range(k + 1)))  # P(at least j drafts accepted), j = 0..k
        rows.append({"k": k, "formula": formula, "summed": summed})
        lines.append(_say("tokens-k", k=f"{k:>2}", tokens=f"{formula:.2f}", per=f"{formula / (k + 1):.2f}"))
    lines.append(_say("tokens-limit", limit=f"{1 / (1 - alpha):.1f}"))
    return Shown(lines, {"alpha": alpha, "rows": rows})


@demo("speculative_residual_mass")
def speculative_residual_mass() -> Shown:
    mass = float(np.maximum(P - Q, 0.0).sum())
    overlap = float(np.minimum(P, Q).sum())
    tv = float(0.5 * np.abs(P - Q).sum())
    x = 1  # a draft that can be rejected: p(x) < q(x)
    lines = [
        _say("mass-rows", p=_shown(P), q=_shown(Q)),
        _say("mass-residual", mass=f"{mass:.3f}"),
        _say("mass-overlap", rejected=f"{1 - overlap:.3f}"),
        _say("mass-tv", tv=f"{tv:.3f}"),
        _say("mass-bound", x=x, bound=f"{Q[x] - P[x]:.3f}"),
    ]
    return Shown(lines, {"mass": mass, "overlap": overlap, "tv": tv, "bound": float(Q[x] - P[x])})
