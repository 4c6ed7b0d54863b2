"""How long the interview loop keeps a candidate waiting: in a fresh copy of the repository,
`dojo interview --loop` on pipes (the real clock), the reference answer saved into each
stage's file in turn:

  save -> verdict   from writing the file to the pass count of that stage;
  s -> next stage   from pressing s on a passing stage to the next stage's clock line (its
                    file written, its statement shown).

    python benchmarks/loop_speed.py --runs 3 [--stages 4]

Only public tools: the standard library and the `dojo` command. Wall-clock seconds; the
machine should be otherwise idle.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from judge_speed import REPO, Live, clone, summary  # noqa: E402

from dojo.catalogue import registry  # noqa: E402


def one_run(stages: int) -> tuple[list[float], list[float]]:
    root = clone()
    live = Live(root, root / ".dojo", "interview", "--loop", "--minutes", "45")
    verdicts, moves = [], []
    try:
        match = live.wait_for(rb"Write your answer in: (\S+)", 0)
        for i, kata in enumerate(registry.chain(registry.KATAS[0])[:stages]):
            attempt = Path(match.group(1).decode())
            pos = live.wait_for(rb"\xe2\x8f\xb1 stage [^\n]*\n", match.end()).end()  # its clock runs
            start = time.perf_counter()
            attempt.write_text((REPO / "solutions" / f"{kata.module}.py").read_text())
            pos = live.wait_for(rb"passed: [^\n]*\n", pos).end()
            verdicts.append(time.perf_counter() - start)
            if i + 1 == stages:
                break
            start = time.perf_counter()
            live.proc.stdin.write(b"s\n")
            live.proc.stdin.flush()
            match = live.wait_for(rb"Write your answer in: (\S+)", pos)
            live.wait_for(rb"\xe2\x8f\xb1 stage [^\n]*\n", match.end())
            moves.append(time.perf_counter() - start)
    finally:
        live.stop(b"q\ny\n")
        shutil.rmtree(root.parent, ignore_errors=True)
    return verdicts, moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--stages", type=int, default=4)
    args = parser.parse_args()
    verdicts, moves = [], []
    for _ in range(args.runs):
        v, m = one_run(args.stages)
        verdicts += v
        moves += m
    print(f"loop, save -> verdict (reference answers, {args.stages} stages)  {summary(verdicts)}")
    print(f"loop, s -> next stage ready                       {summary(moves)}")


if __name__ == "__main__":
    main()
