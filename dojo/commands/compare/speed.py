"""Section 3's measurements: reference, yours and torch (float64, one BLAS thread) at several sizes.

``run_speed`` times the three at every size of a ladder (``ladder``: six sizes from the
battery's smaller size / sqrt 2 to four times it, so both of the battery's sizes are on it),
interleaved over ``ROUNDS`` rounds. Each timing is the least CPU time of one call over several
calls: the worker's own CPU time for yours and the reference (each runs in its own process,
``dojo/worker/zygote_child.py``), this thread's for torch. CPU time, not wall time, because the
machine is often shared: time given to other processes is not counted, and a call that was
interrupted is not slower for it (measured in docs/compare.md: under load the wall-clock
exponent of one file moved from 2.1 to 2.5, its CPU-time exponent stayed within 2.11-2.14).
The recorded times go to ``dojo/commands/compare/growth.py``, which decides what may be said about
growth; ``speed_notes`` turns the rest (ratio, memory) into verdicts on yours. Peak memory is
traced at the battery's two sizes. Torch is imported here only, when the section runs.
"""

from __future__ import annotations

import contextlib
import math
import os
import time
from pathlib import Path

from dojo.commands.compare.growth import MIN_SIZES, cell, fit_growth, growth_claim
from dojo.commands.compare.words import human_time
from dojo.catalogue.env import Env
from dojo.text.messages import message

#: Seconds of calls per timing request (after one warm-up call; at least two calls).
SPEED_BUDGET = 0.02
#: Rounds of timing, interleaved (reference, yours, torch at each size): the least time counts.
ROUNDS = 3
#: Further rounds, only while noise may have left the growth of yours or the reference open.
EXTRA_ROUNDS = 2
#: A call this slow (seconds) is timed in one round only (its request is already three calls).
ONE_ROUND = 0.01
#: Above a size where one call took longer than this, nothing is timed.
SLOW_CALL = 1.0
#: Above a size where one call took longer than this, nothing is timed once ``MIN_SIZES`` are.
ENOUGH_CALL = SLOW_CALL / 4
SLOWER = 3.0  # yours/reference time ratio that gets flagged
NAMES = ("reference", "yours", "torch")


def ladder(small: int, big: int) -> tuple[int, ...]:
    """The sizes timed: small·2^(i/2) for i = -1..4 (multiples of 8 between the battery's own
    sizes), with ``big`` too when it is not among them."""
    sizes = {small * 2 ** (i // 2) if i % 2 == 0 else max(8, round(small * 2 ** (i / 2) / 8) * 8)
             for i in range(-1, 5)}
    return tuple(sorted(sizes | {big}))


def growth(values: dict, sizes) -> float | None:
    """The exponent k of values ~ n^k from two sizes (peak memory, which does not vary)."""
    a, b = sizes
    if values.get(a) and values.get(b):
        return math.log(values[b] / values[a]) / math.log(b / a)
    return None


def torch_peak_memory(call) -> int | None:
    """Peak bytes torch's CPU allocator held during one ``call()``, from torch's profiler (its
    allocations and frees, in order); None when the profiler cannot tell."""
    try:
        from torch.profiler import ProfilerActivity, profile

        with _quiet_stderr(), profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
            result = call()
            del result
        events = sorted((e for e in prof.profiler.kineto_results.events() if e.name() == "[memory]"),
                        key=lambda e: e.start_ns())
    except Exception:  # noqa: BLE001 - another torch version, no profiler: untraced, not a crash
        return None
    current = peak = 0
    for e in events:
        current += e.nbytes()
        peak = max(peak, current)
    return peak if events else None


@contextlib.contextmanager
def _quiet_stderr():
    """The profiler's C++ side prints start/stop lines straight to file descriptor 2."""
    import sys

    sys.stderr.flush()
    saved = os.dup(2)
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(devnull)


def cpu_best(call, budget: float, max_calls: int = 50) -> float:
    """The least CPU time of this thread over calls of ``call()`` after a warm-up call (just the
    warm-up when it took ``ENOUGH_CALL`` or more): torch's timing, as the worker times yours."""
    start = time.thread_time()
    call()
    best = time.thread_time() - start
    spent, calls = best, 0
    while best < ENOUGH_CALL and calls < max_calls and (calls < 2 or spent < budget):
        start = time.thread_time()
        call()
        took = time.thread_time() - start
        best, spent, calls = min(best, took), spent + took, calls + 1
    return best


def run_speed(env: Env, battery, ref_fn, yours, timeout: float, sizes=None) -> dict:
    """Time the three implementations at every size of the ladder (or ``sizes``), interleaved
    over ``ROUNDS`` rounds, and trace their peak memory at the battery's two sizes."""
    import inspect

    from dojo.catalogue.batteries import battery_text
    from dojo.worker.isolate import Isolated
    from dojo.text.messages import t

    speed = battery.speed
    sizes = tuple(sizes) if sizes else ladder(*speed.sizes)
    shown = speed.sizes if set(speed.sizes) <= set(sizes) else (sizes[0], sizes[-1])
    # Yours and the reference run alike: each in a worker with one BLAS thread; torch gets one too.
    threads, source = 1, t("compare.speed.threads.source")
    started = time.perf_counter()
    reference = Isolated(Path(inspect.getsourcefile(ref_fn)), ref_fn.__name__)
    try:
        result = _run_speed(speed, reference, yours, timeout, sizes, shown, threads, source)
        result["what"] = battery_text(battery, "speed_what")  # the shapes, in the tool's language
    finally:
        reference.close()
    result["seconds"] = time.perf_counter() - started  # the section's own wall time, torch's import included
    return result


def _run_speed(speed, reference, yours, timeout, sizes, shown, threads, source) -> dict:
    from dojo.worker.isolate import Outcome

    result = {"what": speed.what, "sizes": list(sizes), "shown": list(shown), "clock": "cpu", "one_round": ONE_ROUND,
              "threads": {"numpy": threads, "source": source}, "rows": {}, "notes": [], "skipped": None}
    inputs = {n: speed.build(n) for n in sizes}
    rows = {name: {"times": {}, "seconds": {}, "peak": {}, "peak_bytes": None, "problem": None} for name in NAMES}
    mine, torch_row = rows["yours"], rows["torch"]

    torch_calls = {}
    try:
        import torch
    except Exception as e:  # noqa: BLE001 - torch missing or broken: a row, not a crash
        torch_row["problem"] = message("compare.speed.no-torch", error=type(e).__name__)
    else:
        torch.set_num_threads(threads)
        result["threads"]["torch"] = torch.get_num_threads()
        torch_calls = {n: speed.torch(torch, inputs[n]) for n in sizes}

    def worker_time(worker, n, limit):
        got = worker.ask(("time", inputs[n], SPEED_BUDGET), limit)
        if isinstance(got, Outcome):
            return got
        return got["cpu"]

    def time_one(name: str, n: int) -> None:
        row = rows[name]
        if name == "torch":
            got = cpu_best(torch_calls[n], SPEED_BUDGET)
        else:
            worker, limit = (reference, 60.0) if name == "reference" else (yours, timeout + 3.0)
            got = worker_time(worker, n, limit)
            if isinstance(got, Outcome):
                row["problem"] = (message("compare.speed.problem.timeout", n=n, seconds=f"{timeout:g}")
                                  if got.status == "timeout" else
                                  message("compare.speed.problem.failed", n=n, text=got.message or got.status))
                return
        row["times"].setdefault(n, []).append(got)

    def wanted(name: str, n: int, round_: int, again: set) -> bool:
        """Whether to time ``name`` at ``n`` in this round: going up the ladder in the first
        round while calls stay quick; again in the other rounds only where a call is quick
        (``ONE_ROUND``), and in an extra round (``again``: the names whose growth noise left
        open) wherever it is not slow."""
        row = rows[name]
        if row["problem"] is not None or (name == "torch" and not torch_calls):
            return False
        if round_ >= ROUNDS:
            return name in again and n in row["times"] and min(row["times"][n]) < ENOUGH_CALL
        if round_ > 0:
            return n in row["times"] and min(row["times"][n]) < ONE_ROUND
        below = [m for m in sizes if m < n]
        if not below:
            return True
        last = below[-1]
        if last not in row["times"]:
            return False
        took = min(row["times"][last])
        return took < SLOW_CALL and (len(row["times"]) < MIN_SIZES or took < ENOUGH_CALL)

    rounds = 0
    for round_ in range(ROUNDS + EXTRA_ROUNDS):
        again = _worth_another_round(rows) if round_ >= ROUNDS else set()
        if round_ >= ROUNDS and not again:
            break
        for n in sizes:
            for name in NAMES:
                if wanted(name, n, round_, again):
                    time_one(name, n)
        rounds += 1
    result["rounds"] = rounds
    for row in rows.values():
        row["seconds"] = {n: min(ts) for n, ts in row["times"].items()}
    timed = sorted(mine["seconds"])  # where yours stopped going up the ladder: its calls got slow
    mine["stopped"] = (message("compare.speed.not-timed", at=timed[-1], took=human_time(mine["seconds"][timed[-1]]))
                       if mine["problem"] is None and timed and timed[-1] < sizes[-1] else None)

    # Peak memory at the battery's two sizes, beside the times: the reference and yours through
    # tracemalloc in their workers (precise for small arrays; only for your eyes: the judge's
    # memory bound is resident memory read from outside), torch through its own profiler.
    for n in shown:
        got = reference.ask(("traced", inputs[n]), 60.0)
        if not isinstance(got, Outcome):
            rows["reference"]["peak"][n] = got
        if mine["seconds"].get(n) is not None and mine["seconds"][n] < SLOW_CALL / 2:
            got = yours.ask(("traced", inputs[n]), timeout + 10 * mine["seconds"][n] + 2.0)
            # its worker's own figure: a kata file may replace tracemalloc (10**400 bytes once
            # ended compare with an OverflowError): a count of bytes a machine can hold, or none
            if not isinstance(got, Outcome) and type(got) is int and 0 <= got < 2**62:
                mine["peak"][n] = got
        if n in torch_calls:
            got = torch_peak_memory(torch_calls[n])
            if got is not None:
                torch_row["peak"][n] = got

    ref_seconds = rows["reference"]["seconds"]
    both = [n for n in sizes if n in mine["seconds"] and n in ref_seconds]
    result["ratio_n"] = shown[1] if shown[1] in both or not both else both[-1]
    for name, row in rows.items():
        fit = fit_growth(row["times"])
        row["growth_fit"] = fit.json()
        row["growth"] = fit.exponent if fit.supported else None
        row["growth_cell"] = cell(fit)
        row["peak_bytes"] = row["peak"].get(shown[1])
        row["memory_growth"] = growth(row["peak"], shown)
        t, r = row["seconds"].get(result["ratio_n"]), ref_seconds.get(result["ratio_n"])
        row["ratio"] = t / r if t and r else None
        result["rows"][name] = row
    claim = growth_claim(mine["times"], rows["reference"]["times"])
    result["claim"] = {"kind": claim.kind, "message": claim.message,
                       "yours": claim.yours.json(), "reference": claim.reference.json()}
    result["notes"] = speed_notes(result)
    return result


def _worth_another_round(rows: dict) -> set[str]:
    """Yours and the reference, when noise may have left their growth open (a loose fit): an
    extra round may settle it."""
    return {name for name in ("reference", "yours")
            if rows[name]["problem"] is None and fit_growth(rows[name]["times"]).reason == "loose"}


def speed_notes(result: dict) -> list[tuple[str, dict]]:
    """(colour, message) verdicts on yours: slow, slower than the reference, memory, growth."""
    ref, mine = result["rows"]["reference"], result["rows"]["yours"]
    notes = []
    if mine.get("problem"):
        notes.append(("red", message("compare.speed.slow", problem=mine["problem"])))
    if mine.get("stopped"):
        notes.append(("dim", mine["stopped"]))
    ratio, at = mine.get("ratio"), result["ratio_n"]
    if ratio and ratio >= SLOWER:
        notes.append(("yellow", message("compare.speed.slower", times=times_text(ratio), n=at)))
    if mine.get("peak_bytes") and ref.get("peak_bytes") and mine["peak_bytes"] > 2 * ref["peak_bytes"]:
        notes.append(("yellow", message("compare.speed.memory",
                                        times=f"{mine['peak_bytes'] / ref['peak_bytes']:.1f}×")))
    if (mine.get("memory_growth") is not None and ref.get("memory_growth") is not None
            and mine["memory_growth"] > ref["memory_growth"] + 0.5):
        notes.append(("yellow", message("compare.speed.memory-growth", yours=f"{mine['memory_growth']:.1f}",
                                        reference=f"{ref['memory_growth']:.1f}")))
    if not notes and ratio:
        notes.append(("green", message("compare.speed.fine", ratio=f"{ratio:.2f}×", n=at)))
    claim = result.get("claim")
    if claim:
        colour = {"faster": "yellow", "slower": "green", "alike": "green"}.get(claim["kind"], "dim")
        notes.append((colour, claim["message"]))
    return notes


def times_text(ratio: float) -> str:
    return f"{ratio:.1f}×" if ratio < 10 else f"{ratio:.0f}×"
