"""Section 3's measurements: reference, yours and torch (float64, NumPy's BLAS thread count) at
two sizes.

``run_speed`` times the three interleaved over ``ROUNDS`` rounds (the best counts; up to
``EXTRA_ROUNDS`` more while a verdict looks like noise), traces the peak memory of one call
(tracemalloc in each worker for NumPy, torch's own profiler for torch) and works out the ratio to the reference
and how time and memory grow; ``speed_notes`` turns that into verdicts on yours. Torch is
imported here only, when the section runs.
"""

from __future__ import annotations

import contextlib
import math
import os
from pathlib import Path

from dojo.compare.words import human_time
from dojo.env import Env

#: Seconds of timing per implementation, size and round (after one warm-up call).
SPEED_BUDGET = 0.05
#: Rounds of timing, interleaved (reference, yours, torch at each size): the best counts.
ROUNDS = 2
#: Further rounds, only while a fast implementation looks slow or a growth exponent looks odd.
EXTRA_ROUNDS = 3
#: A call slower than this at the smaller size is not timed at the realistic size.
SLOW_CALL = 1.0
SLOWER = 3.0  # yours/reference time ratio that gets flagged


def blas_threads() -> tuple[int, str]:
    """How many threads NumPy's BLAS uses, and how we know."""
    try:
        from threadpoolctl import threadpool_info

        for info in threadpool_info():
            if info.get("user_api") == "blas":
                return int(info["num_threads"]), f"NumPy's {info.get('internal_api', 'BLAS')}"
    except Exception:  # noqa: BLE001 - threadpoolctl is optional
        pass
    try:
        import ctypes
        import glob

        import numpy as np

        folder = Path(np.__file__).resolve().parent.parent / "numpy.libs"
        for lib in sorted(glob.glob(str(folder / "*openblas*"))):
            handle = ctypes.CDLL(lib)
            for symbol in ("scipy_openblas_get_num_threads64_", "scipy_openblas_get_num_threads",
                           "openblas_get_num_threads64_", "openblas_get_num_threads"):
                if hasattr(handle, symbol):
                    return int(getattr(handle, symbol)()), "NumPy's OpenBLAS"
    except Exception:  # noqa: BLE001 - any other BLAS: fall back to the environment
        pass
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        if os.environ.get(var, "").isdigit():
            return int(os.environ[var]), f"${var}"
    return os.cpu_count() or 1, "the CPU count"


def growth(times: dict, sizes) -> float | None:
    a, b = sizes
    if times.get(a) and times.get(b):
        return math.log(times[b] / times[a]) / math.log(b / a)
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


def run_speed(env: Env, battery, ref_fn, yours, timeout: float, sizes) -> dict:
    """Time the three implementations at two sizes, interleaved over ``ROUNDS`` rounds (best of all)."""
    import inspect

    from dojo.isolate import Isolated

    speed = battery.speed
    sizes = sizes or speed.sizes
    small, big = sizes
    # Yours and the reference run alike: each in a worker with one BLAS thread; torch gets one too.
    threads, source = 1, "one BLAS thread in each worker, as the judge runs them"
    reference = Isolated(Path(inspect.getsourcefile(ref_fn)), ref_fn.__name__)
    try:
        return _run_speed(speed, reference, yours, timeout, sizes, small, big, threads, source)
    finally:
        reference.close()


def _run_speed(speed, reference, yours, timeout, sizes, small, big, threads, source) -> dict:
    from dojo.isolate import Outcome, measure

    def ref_time(n):
        got = reference.ask(("time", inputs[n], SPEED_BUDGET), 60.0)
        return math.inf if isinstance(got, Outcome) else got

    result = {"what": speed.what, "sizes": list(sizes), "threads": {"numpy": threads, "source": source},
              "rows": {}, "notes": [], "skipped": None}
    inputs = {n: speed.build(n) for n in sizes}
    rows = {name: {"seconds": {}, "peak": {}, "peak_bytes": None, "problem": None}
            for name in ("reference", "yours", "torch")}
    ref, mine, torch_row = rows["reference"], rows["yours"], rows["torch"]

    torch_calls = {}
    try:
        import torch
    except Exception as e:  # noqa: BLE001 - torch missing or broken: a row, not a crash
        torch_row["problem"] = f"torch cannot be imported ({type(e).__name__})"
    else:
        torch.set_num_threads(threads)
        result["threads"]["torch"] = torch.get_num_threads()
        torch_calls = {n: speed.torch(torch, inputs[n]) for n in sizes}

    def best(row, n, seconds):
        row["seconds"][n] = min(seconds, row["seconds"].get(n, math.inf))

    def suspicious() -> bool:
        """A verdict that a noisy round could have made up: worth more rounds while calls are cheap."""
        if mine["problem"] or any(t > SLOW_CALL / 4 for t in mine["seconds"].values()):
            return False
        t, r = mine["seconds"].get(big), ref["seconds"].get(big)
        odd = [g for g in (growth(row["seconds"], sizes) for row in rows.values())
               if g is not None and not 0.5 <= g <= 4.0]
        return bool(odd) or (t is not None and r and t / r >= SLOWER)

    for round_ in range(ROUNDS + EXTRA_ROUNDS):
        if round_ >= ROUNDS and not suspicious():
            break
        for n in sizes:
            best(ref, n, ref_time(n))
            skip = mine["problem"] or (n == big and mine["seconds"].get(small, 0) > SLOW_CALL) \
                or mine["seconds"].get(n, 0) > SLOW_CALL / 4  # slow: one round says enough
            if not skip:
                got = yours.ask(("time", inputs[n], SPEED_BUDGET), timeout + 3.0)
                if isinstance(got, Outcome):
                    mine["problem"] = (f"one call at n={n} took longer than {timeout:g} s" if got.status == "timeout"
                                       else f"timing failed at n={n}: {got.message}")
                else:
                    best(mine, n, got)
            if n in torch_calls:
                call = torch_calls[n]
                best(torch_row, n, measure(lambda: call(), {}, SPEED_BUDGET))
    if not mine["problem"] and small in mine["seconds"] and big not in mine["seconds"]:
        mine["problem"] = (f"not timed at n={big}: one call at n={small} already took "
                           f"{human_time(mine['seconds'][small])}")

    # Peak memory at both sizes, beside the times: the reference and yours through tracemalloc
    # in their workers (precise for small arrays; only for your eyes: the judge's memory bound
    # is resident memory read from outside), torch through its own profiler.
    for n in sizes:
        got = reference.ask(("traced", inputs[n]), 60.0)
        if not isinstance(got, Outcome):
            ref["peak"][n] = got
        if mine["seconds"].get(n) is not None and mine["seconds"][n] < SLOW_CALL / 2:
            got = yours.ask(("traced", inputs[n]), timeout + 10 * mine["seconds"][n] + 2.0)
            if not isinstance(got, Outcome):
                mine["peak"][n] = got
        if n in torch_calls:
            got = torch_peak_memory(torch_calls[n])
            if got is not None:
                torch_row["peak"][n] = got

    for name, row in rows.items():
        row["peak_bytes"] = row["peak"].get(big)
        row["memory_growth"] = growth(row["peak"], sizes)
        row["growth"] = growth(row["seconds"], sizes)
        t, r = row["seconds"].get(big), ref["seconds"][big]
        row["ratio"] = t / r if t else None
        result["rows"][name] = row
    if mine["seconds"].get(small) and not mine["seconds"].get(big):
        mine["ratio_small"] = mine["seconds"][small] / ref["seconds"][small]
    result["notes"] = speed_notes(result, sizes)
    return result


def speed_notes(result: dict, sizes) -> list[tuple[str, str]]:
    """(colour, sentence) verdicts on yours."""
    small, big = sizes
    ref, mine = result["rows"]["reference"], result["rows"]["yours"]
    notes = []
    if mine.get("problem"):
        notes.append(("red", f"Yours is slow: {mine['problem']}."))
    ratio = mine.get("ratio") or mine.get("ratio_small")
    at = big if mine.get("ratio") else small
    if ratio and ratio >= SLOWER:
        times = f"{ratio:.1f}×" if ratio < 10 else f"{ratio:.0f}×"
        notes.append(("yellow", f"Yours is {times} slower than the reference at n={at}. "
                                "Look for a Python loop over rows or entries, or work repeated per call."))
    if mine.get("growth") is not None and ref.get("growth") is not None and mine["growth"] > ref["growth"] + 0.5:
        notes.append(("yellow", f"Yours grows like n^{mine['growth']:.1f}, the reference like n^{ref['growth']:.1f}: "
                                "an extra loop over n somewhere?"))
    if mine.get("peak_bytes") and ref.get("peak_bytes") and mine["peak_bytes"] > 2 * ref["peak_bytes"]:
        notes.append(("yellow", f"Yours allocates {mine['peak_bytes'] / ref['peak_bytes']:.1f}× the reference's "
                                "peak memory: extra copies of the big arrays?"))
    if (mine.get("memory_growth") is not None and ref.get("memory_growth") is not None
            and mine["memory_growth"] > ref["memory_growth"] + 0.5):
        notes.append(("yellow", f"Your peak memory grows like n^{mine['memory_growth']:.1f}, the reference's like "
                                f"n^{ref['memory_growth']:.1f}: an array that grows faster than the reference's biggest?"))
    if not notes and ratio:
        notes.append(("green", f"Yours runs at {ratio:.2f}× the reference's time: fine."))
    odd = [f"{name} n^{row['growth']:.1f}" for name, row in result["rows"].items()
           if row.get("growth") is not None and not 0.5 <= row["growth"] <= 4.0]
    if odd:
        notes.append(("dim", f"Some timings look noisy ({', '.join(odd)}): is the machine busy? "
                              "Run again for steadier numbers."))
    return notes
