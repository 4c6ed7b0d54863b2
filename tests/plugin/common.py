"""What every part of the judge's plugin shares: where the checkout is, which kata a test file
judges, and what the candidate's code printed. Imported first: the judge's NumPy is set to one
thread here, before NumPy is first imported."""

from __future__ import annotations

import os
from pathlib import Path

from dojo.catalogue import registry
from dojo.worker.zygote_handle import ONE_THREAD


# The judge's own NumPy on one thread, as in the workers, set before NumPy is first imported:
# a BLAS thread spinning while the machine is busy is charged to this process, and turned a
# right file's 0.02 s call into 1.5 s of CPU time (over the self-check's 1 s limit per call).
for _name, _value in ONE_THREAD.items():
    os.environ.setdefault(_name, _value)

ROOT = Path(__file__).resolve().parent.parent.parent
TESTS = ROOT / "tests"
KATA_BY_TEST = {TESTS / f"test_{k.module}.py": k for k in registry.KATAS}


def kata_of(item) -> registry.Kata | None:
    return KATA_BY_TEST.get(Path(item.path))


def relative(path: Path) -> str:
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def candidate_printed(config, text: str) -> None:
    """What the candidate's code printed: shown as pytest shows a test's output, and kept for
    the property's record (``output``)."""
    import sys

    sys.stdout.write(text)
    config.dojo_printed.append(text)
