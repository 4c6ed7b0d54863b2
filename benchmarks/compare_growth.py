"""Does `dojo compare` make the same growth claim every time it compares the same correct file?

    python benchmarks/compare_growth.py [--runs 5] [KATA ...]
    python benchmarks/compare_growth.py --file PATH --expect faster KATA

For each kata (default: all ten), `dojo compare KATA --file solutions/KATA.py --json FILE` runs
--runs times in a row: the reference against a copy of itself, so the true answer is "grows
like the reference". Each run's speed section is read back from the JSON: the growth claim
(faster / slower / alike / unknown), the two fitted exponents with their 95% intervals, the
ratio at the larger size, the section's own wall time and the whole process's. The load
average is read before and after every run (the machine may be shared). Prints one line a
run and a summary a kata; exit status 0 when every kata made one claim in all its runs and
never a wrong one ("faster" or "slower" for a file against itself). With --file, that file is
compared instead of the reference (one kata), and --expect names the right claim (e.g. "faster"
for benchmarks/answers/masked_attention_cubic.py, right but doing n times the reference's
work). Only public tools: the standard library and the `dojo` command; the state folder is a
scratch one.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
KATAS = ("softmax", "masked_attention", "causal_self_attention", "multihead_attention", "kv_cache_attention",
         "flash_attention", "grouped_query_attention", "attention_backward", "rope", "batched_attention")


def fitted(fit: dict) -> str:
    if fit.get("exponent") is None:
        return f"— ({fit.get('reason')})"
    mark = "" if fit.get("supported") else f" ({fit.get('reason')})"
    return f"{fit['exponent']:.2f} ± {fit['half_width']:.2f}{mark}"


def one_run(kata: str, scratch: Path, file: Path | None = None) -> dict:
    report = scratch / f"{kata}.json"
    env = dict(os.environ, DOJO_STATE_DIR=str(scratch / "state"), NO_COLOR="1")
    env.pop("CI", None)
    load_before = os.getloadavg()[0]
    start = time.monotonic()
    file = file or REPO / "solutions" / f"{kata}.py"
    proc = subprocess.run([sys.executable, "-m", "dojo", "compare", kata, "--file", str(file),
                           "--json", str(report)], cwd=REPO, env=env, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL)
    wall = time.monotonic() - start
    load_after = os.getloadavg()[0]
    if proc.returncode != 0 or not report.exists():
        return {"error": f"exit {proc.returncode}: {(proc.stderr or proc.stdout)[-300:]}", "wall": wall,
                "load": (load_before, load_after)}
    speed = json.loads(report.read_text())["speed"]
    claim = speed["claim"]
    least = {name: {n: min(ts) for n, ts in speed["rows"][name]["times"].items()} for name in ("yours", "reference")}
    return {"kind": claim["kind"], "yours": claim["yours"], "reference": claim["reference"], "least": least,
            "ratio": speed["rows"]["yours"]["ratio"], "ratio_n": speed["ratio_n"], "rounds": speed["rounds"],
            "section": speed["seconds"], "wall": wall, "load": (load_before, load_after),
            "cells": {name: fitted(row["growth_fit"]) for name, row in speed["rows"].items()}}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--file", type=Path, help="compare this file instead of the reference (one kata)")
    parser.add_argument("--expect", default="alike", choices=("alike", "faster", "slower"),
                        help="the claim that is right for the file (default: alike, the reference itself)")
    parser.add_argument("katas", nargs="*", default=list(KATAS))
    args = parser.parse_args()
    if args.file and len(args.katas) != 1:
        parser.error("--file needs exactly one kata")
    steady = True
    loads = []
    with tempfile.TemporaryDirectory(prefix="dojo-growth-") as tmp:
        scratch = Path(tmp)
        for kata in args.katas:
            runs = []
            for i in range(args.runs):
                got = one_run(kata, scratch, args.file and args.file.resolve())
                runs.append(got)
                loads += list(got["load"])
                if "error" in got:
                    print(f"{kata:24} run {i + 1}: {got['error']}")
                    continue
                print(f"{kata:24} run {i + 1}: {got['kind']:7}  yours {fitted(got['yours']):24} "
                      f"reference {fitted(got['reference']):24} ratio {got['ratio']:.2f} at n={got['ratio_n']}  "
                      f"rounds {got['rounds']}  section {got['section']:.1f} s  whole {got['wall']:.1f} s  "
                      f"load {got['load'][0]:.1f}->{got['load'][1]:.1f}", flush=True)
                if got["kind"] != args.expect:  # what the rule saw
                    for name, least in got["least"].items():
                        print(f"{'':24}   {name} least times: "
                              + ", ".join(f"{n}: {t * 1e3:.3g} ms" for n, t in least.items()), flush=True)
            kinds = [r.get("kind", "error") for r in runs]
            same = len(set(kinds)) == 1
            wrong = [k for k in kinds if k in ("alike", "faster", "slower", "error") and k != args.expect]
            steady = steady and same and not wrong
            sections = [r["section"] for r in runs if "section" in r]
            print(f"{kata:24} claims: {', '.join(kinds)}  -> {'the same' if same else 'DIFFERENT'}"
                  f"{', WRONG: ' + ', '.join(wrong) if wrong else ''}; speed section median "
                  f"{statistics.median(sections):.1f} s (max {max(sections):.1f} s)" if sections else "", flush=True)
    print(f"load average (1 min) over the runs: {min(loads):.1f}-{max(loads):.1f}, median {statistics.median(loads):.1f}; "
          f"{os.cpu_count()} CPUs")
    return 0 if steady else 1


if __name__ == "__main__":
    sys.exit(main())
