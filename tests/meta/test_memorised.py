"""An answer that memorised one run's examples fails every other run.

The judge used to draw the same examples every run, so a file holding a table of those inputs
and their answers passed. Now each run draws from its own seed: here a "candidate" records
every call of one run of the softmax judge against the reference (answers and errors alike),
then answers from that table alone (anything it has not seen gets the uniform distribution).
On the run it memorised it passes every property (so the table is complete: the check below
means something); on the self-check's seeds it fails.
"""

from __future__ import annotations

import numpy as np

from dojo.worker.loader import load_kata
from tests.judge import Guarded
from tests.meta.selfcheck import SEEDS, _sweep
from tests.tool.harness import REPO

from tests.plugin.profiles import SELF_CHECK

KATA = "softmax"
MEMORISED_SEED = 20261203


def _key(x, axis) -> tuple:
    a = np.asarray(x)
    # a longdouble's bytes hold padding that differs between copies of one value (x86-64's
    # 80-bit floats in 16 bytes): its values here are float64 ones, so keyed by those
    data = a.astype(np.float64).tobytes() if a.dtype == np.longdouble else a.tobytes()
    return a.dtype.str, a.shape, data, repr(axis)


def _memorise(seed: int) -> dict:
    reference = load_kata(REPO / "solutions" / f"{KATA}.py", KATA)
    table = {}

    def recording(x, axis=-1):
        try:
            out = reference(x, axis=axis)
        except ValueError as e:
            table[_key(x, axis)] = e
            raise
        table[_key(x, axis)] = np.array(out, copy=True)
        return out

    _sweep(KATA, Guarded(recording, KATA, 1.0), SELF_CHECK, False, seed)
    return table


def _replaying(table: dict):
    def softmax(x, axis=-1):
        seen = table.get(_key(x, axis))
        if isinstance(seen, ValueError):
            raise ValueError(str(seen))
        if seen is not None:
            return seen.copy()
        a = np.asarray(x, dtype=np.float64)
        return np.full(a.shape, 1.0 / max(1, a.shape[axis] if a.ndim else 1))

    return softmax


def test_an_answer_that_memorised_one_run_fails_the_others():
    table = _memorise(MEMORISED_SEED)
    assert len(table) > 100  # one run's worth of calls
    same = _sweep(KATA, Guarded(_replaying(table), KATA, 1.0), SELF_CHECK, False, MEMORISED_SEED)
    assert [o.property for o in same if o.error is not None] == []  # the run it memorised: all pass
    for seed in SEEDS:
        other = _sweep(KATA, Guarded(_replaying(table), KATA, 1.0), SELF_CHECK, True, seed)
        assert any(o.error is not None for o in other), f"the memorised answer passed run seed {seed}"
