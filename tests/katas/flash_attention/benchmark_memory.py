"""How much memory flash attention needs at the bound's size (n = 1000, m = 16500, d = 4,
block_size = 64), as the judge measures it (dojo/worker/memory.py; the bound is in
tests/test_flash_attention.py): in a fresh worker, what the module holds, what a first call
(causal=False) leaves resident, and the rise during a second call (causal=True).

    python tests/katas/flash_attention/benchmark_memory.py [--calls 4]

For the reference, every right answer in tests/katas/flash_attention/right/, the wrong answers
the bound must catch (the full matrix; the full matrix only when causal; a score matrix kept
between calls) and the hostile files that hold an n×m mask of bools or float16: --calls
measures of each, in MiB.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO))

import numpy as np  # noqa: E402

from dojo.worker.remote import RemoteFunction  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=4)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    inputs = {"q": rng.normal(size=(1000, 4)), "k": rng.normal(size=(16500, 4)), "v": rng.normal(size=(16500, 4)),
              "block_size": 64}
    files = [REPO / "solutions" / "flash_attention.py",
             *sorted((REPO / "tests" / "katas" / "flash_attention" / "right").glob("*.py")),
             *(REPO / "tests" / "katas" / "flash_attention" / "wrong" / f"{name}.py"
               for name in ("full_matrix", "full_matrix_when_causal", "keeps_the_scores_between_calls")),
             *(REPO / "tests" / "meta" / "hostile" / f"flash_attention_{name}.py"
               for name in ("full_bool_causal_mask", "full_float16_causal_bias"))]
    for path in files:
        fn = RemoteFunction(path, "flash_attention", cpu_budget=None)
        try:
            rises = [fn.peak_memory_of({**inputs, "causal": False}, {**inputs, "causal": True}, cpu=10.0)[1]
                     for _ in range(args.calls)]
            shown = ", ".join(f"{r / 2**20:.1f}" for r in rises)
            print(f"{path.relative_to(REPO)}: {shown} MiB (max {max(rises) / 2**20:.1f})")
        finally:
            fn.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
