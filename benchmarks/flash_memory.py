"""How far a worker's resident memory rises during one flash-attention call at n = m = 2048:
the measure behind the judge's memory bound (tests/test_flash_attention.py).

    python benchmarks/flash_memory.py [--calls 4]

For the reference, every right answer in tests/meta/right/flash_attention/ and the full-matrix
wrong answer: the rise (the kernel's high-water mark, reset by the judge just before the call,
after a warm-up call) for --calls calls, in MiB.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import numpy as np  # noqa: E402

from dojo.remote import RemoteFunction  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=4)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    inputs = {name: rng.normal(size=(2048, 16)) for name in "qkv"}
    files = [REPO / "solutions" / "flash_attention.py",
             *sorted((REPO / "tests" / "meta" / "right" / "flash_attention").glob("*.py")),
             REPO / "tests" / "meta" / "wrong" / "flash_attention" / "full_matrix.py"]
    for path in files:
        fn = RemoteFunction(path, "flash_attention", cpu_budget=None)
        try:
            rises = [fn.peak_memory(cpu=10.0, **inputs, block_size=64, causal=False)[1] for _ in range(args.calls)]
        finally:
            fn.close()
        shown = ", ".join(f"{r / 2**20:.1f}" for r in rises)
        print(f"{path.relative_to(REPO)}: {shown} MiB (max {max(rises) / 2**20:.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
