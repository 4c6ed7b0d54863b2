"""How time grows with n, and what may be said about it: a pure rule on recorded timings.

The speed section times each implementation at several sizes, several rounds each
(``dojo/commands/compare/speed.py``); this module decides, from those timings alone, which growth rate
the data supports. No clock here: ``tests/tool/test_compare_growth.py`` feeds it tables.

- ``fit_growth(times)``: ``times`` maps n to the times recorded at n (seconds, one a round). The
  least of them counts (a busy machine only ever adds time), sizes whose least time is under
  ``NOISE_FLOOR`` are left out, and log(time) is fitted against log(n) by least squares. The
  exponent is the slope; its 95% confidence interval comes from the residuals (Student's t with
  m - 2 degrees of freedom). It may be stated (``supported``) only with at least ``MIN_SIZES``
  sizes above the floor and an interval no wider than ± ``MAX_HALF_WIDTH``. A wide interval
  means noise, or timings that do not follow one power of n (the CPU's caches, a fixed cost
  per call): either way no single exponent describes them.
- ``growth_claim(yours, reference)``: both fitted over the sizes where both have timings
  above the floor. Yours grows faster (or more slowly) than the reference only when both
  exponents are supported, their intervals do not overlap and the exponents differ by at least
  ``MIN_GAP``; with both supported otherwise, they grow alike; else nothing is claimed, and
  the message says why.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping, Sequence

from dojo.text.messages import message

#: Least times under this are not fitted: reading the clock costs about 0.2 µs and a call into
#: a worker about 2 µs (measured: docs/compare.md), so here they are under a tenth of the time.
NOISE_FLOOR = 20e-6
#: Sizes needed above the floor for a fit (three points leave one degree of freedom: t = 12.7).
MIN_SIZES = 4
#: The widest 95% interval (± this) of an exponent that is stated.
MAX_HALF_WIDTH = 0.4
#: The least difference of exponents called faster or slower growth: an extra loop over n
#: adds 1; caches and work per row move a fitted exponent by a tenth or two.
MIN_GAP = 0.3

#: Student's t, two-sided 95%, by degrees of freedom.
_T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262,
        10: 2.228, 12: 2.179, 15: 2.131, 20: 2.086, 30: 2.042}


def t95(dof: int) -> float:
    """Student's t quantile for a two-sided 95% interval (the next smaller tabulated dof)."""
    if dof < 1:
        raise ValueError(f"t95 needs at least one degree of freedom, got {dof}")
    return _T95[max(d for d in _T95 if d <= dof)]  # conservative between tabulated values


@dataclass(frozen=True)
class Fit:
    """The least-squares exponent of one implementation's timings, and whether it may be stated."""

    sizes: tuple[int, ...]  # the sizes fitted (timed, least time at or above the floor)
    exponent: float | None  # the slope of log(time) on log(n); None with fewer than 3 sizes
    half_width: float | None  # the 95% interval's half-width; None with fewer than 3 sizes
    r2: float | None
    supported: bool
    reason: str | None  # why not: "no-timings", "under-floor", "too-few-sizes", "loose"
    under_floor: tuple[int, ...] = ()  # sizes left out: least time under NOISE_FLOOR

    def json(self) -> dict:
        return {"sizes": list(self.sizes), "exponent": self.exponent, "half_width": self.half_width,
                "r2": self.r2, "supported": self.supported, "reason": self.reason,
                "under_floor": list(self.under_floor)}


def least(times: Mapping[int, Sequence[float]]) -> dict[int, float]:
    """The least finite, positive time at each size that has one."""
    out = {}
    for n, ts in times.items():
        good = [float(t) for t in ts if t is not None and math.isfinite(t) and t > 0]
        if good:
            out[int(n)] = min(good)
    return out


def fit_growth(times: Mapping[int, Sequence[float]], only: set[int] | None = None,
               floor: float = NOISE_FLOOR, quick: set[int] = frozenset()) -> Fit:
    """Fit time = c·n^k to the least time at each size (sizes in ``only``, when given). Sizes
    in ``quick`` are left out like those under the floor (another implementation's, when two
    are fitted over the same sizes)."""
    best = {n: t for n, t in least(times).items() if only is None or n in only}
    if any(n <= 0 for n in best):
        raise ValueError(f"sizes must be positive, got {sorted(best)}")
    under = tuple(sorted(n for n, t in best.items() if t < floor))
    sizes = tuple(sorted(n for n in best if n not in under and n not in quick))
    if not best:
        return Fit((), None, None, None, False, "no-timings")
    # fewer sizes than timed: too quick to time (its own or the other's), else too few timed
    short = "under-floor" if len(sizes) < len(best) and len(best) >= MIN_SIZES else "too-few-sizes"
    if len(sizes) < 3:
        return Fit(sizes, None, None, None, False, short, under)
    x = [math.log(n) for n in sizes]
    y = [math.log(best[n]) for n in sizes]
    m = len(x)
    mx, my = sum(x) / m, sum(y) / m
    sxx = sum((a - mx) ** 2 for a in x)
    k = sum((a - mx) * (b - my) for a, b in zip(x, y)) / sxx
    residuals = [b - my - k * (a - mx) for a, b in zip(x, y)]
    ss_res = sum(r * r for r in residuals)
    ss_tot = sum((b - my) ** 2 for b in y)
    half = t95(m - 2) * math.sqrt(ss_res / (m - 2) / sxx)
    r2 = 1.0 - ss_res / ss_tot if ss_tot > 0 else 1.0
    if m < MIN_SIZES:
        reason = short
    elif half > MAX_HALF_WIDTH:
        reason = "loose"
    else:
        reason = None
    return Fit(sizes, k, half, r2, reason is None, reason, under)


@dataclass(frozen=True)
class Claim:
    kind: str  # "faster", "slower", "alike" or "unknown"
    message: dict  # a catalogue message (dojo/text/messages.py)
    yours: Fit
    reference: Fit


def sizes_text(sizes) -> str:
    return ", ".join(str(n) for n in sizes)


def exponent_text(fit: Fit) -> str:
    """``n^2.1 ± 0.2``: the exponent and its interval, to one decimal (two below 0.1)."""
    pm = f"{fit.half_width:.1f}" if fit.half_width >= 0.05 else f"{fit.half_width:.2f}"
    return f"n^{fit.exponent:.1f} ± {pm}"


def why_not(fit: Fit, who, timed: int) -> dict | None:
    """A catalogue message: why ``fit``'s exponent is not stated (``who``: the message
    ``compare.growth.who.yours`` or ``.reference``; ``timed``: at how many sizes it was timed). None when the reason is the other
    implementation's (its quick calls or its missing sizes left this one too few)."""
    if fit.reason == "loose":
        return message("compare.growth.why.loose", who=who, exponent=f"{fit.exponent:.1f}",
                       pm=f"{fit.half_width:.1f}", bound=f"{MAX_HALF_WIDTH:g}", sizes=sizes_text(fit.sizes))
    if fit.reason == "under-floor":
        if not fit.under_floor:
            return None
        return message("compare.growth.why.floor", who=who, floor=f"{NOISE_FLOOR * 1e6:.0f} µs",
                       sizes=sizes_text(fit.under_floor), need=MIN_SIZES)
    if timed >= MIN_SIZES:
        return None
    return message("compare.growth.why.few", who=who, count=timed, need=MIN_SIZES)


def growth_claim(yours: Mapping[int, Sequence[float]], reference: Mapping[int, Sequence[float]],
                 floor: float = NOISE_FLOOR) -> Claim:
    """What may be said of yours' growth against the reference's, from the recorded timings:
    both are fitted over the same sizes (timed for both, neither under the floor)."""
    timed = set(least(yours)) & set(least(reference))
    quick = {n for times in (yours, reference) for n in fit_growth(times, timed, floor).under_floor}
    mine, ref = fit_growth(yours, timed, floor, quick), fit_growth(reference, timed, floor, quick)
    if not (mine.supported and ref.supported):
        who_yours, who_ref = message("compare.growth.who.yours"), message("compare.growth.who.reference")
        whys = [w for f, who, times in ((mine, who_yours, yours), (ref, who_ref, reference))
                if not f.supported and (w := why_not(f, who, len(least(times)))) is not None]
        if not whys:  # each lost sizes to the other: they have too few sizes in common
            whys = [message("compare.growth.why.common", count=len(timed - quick), need=MIN_SIZES)]
        why = message("compare.growth.and", first=whys[0], second=whys[1]) if len(whys) > 1 else whys[0]
        return Claim("unknown", message("compare.growth.unknown", why=why), mine, ref)
    params = dict(yours=exponent_text(mine), reference=exponent_text(ref), sizes=sizes_text(mine.sizes))
    gap = mine.exponent - ref.exponent
    apart = abs(gap) > mine.half_width + ref.half_width
    if apart and gap >= MIN_GAP:
        return Claim("faster", message("compare.growth.faster", **params), mine, ref)
    if apart and gap <= -MIN_GAP:
        return Claim("slower", message("compare.growth.slower", **params), mine, ref)
    return Claim("alike", message("compare.growth.alike", **params), mine, ref)


def cell(fit: Fit) -> dict:
    """The speed table's "time grows like" cell, as a message."""
    if fit.supported:
        return message("text", text=exponent_text(fit))
    return message({"loose": "compare.growth.cell.loose", "under-floor": "compare.growth.cell.floor"}
                   .get(fit.reason or "", "compare.growth.cell.few"))
