"""What a function returned, kept to tell whether a later call changed it.

An answer that fills one module-level buffer on every call and returns it (``out[...] = ...;
return out``, to save an allocation) is right call by call, and wrong for every caller: the
result a caller kept changes under it at the next call (a blind hostile round, stop 53: the
judge got each result as a copy, so it never saw). ``Returned`` keeps the arrays of the last
result and their bytes; after the next call, ``changed`` says whether they still hold them.

Used where the candidate's code runs: in its worker (``dojo.worker.zygote_child``) and, for the
project's own files, in the judge's process (``tests.judge.Guarded``). Stdlib and NumPy only.
"""

from __future__ import annotations

#: Results past this size are not kept (a copy of them would count in the memory a call is
#: measured to need, ``dojo.worker.memory``); the properties' results are far smaller.
KEPT_BYTES = 1 << 20


def arrays_in(value, depth: int = 2) -> list:
    """The ndarrays of ``value``: itself, or those in its tuples, lists and dicts ``depth`` deep."""
    import numpy as np

    if type(value) is np.ndarray:
        return [value]
    if depth and isinstance(value, (tuple, list)):
        return [a for item in value[:64] for a in arrays_in(item, depth - 1)]
    if depth and isinstance(value, dict):
        return [a for item in list(value.values())[:64] for a in arrays_in(item, depth - 1)]
    return []


class Returned:
    """The last result's arrays as they were returned (those that are not views of an input:
    an input's memory is the caller's, and may be reused for the next call's)."""

    def __init__(self):
        self._kept: list = []

    def changed(self) -> bool:
        """Whether an array of the last result kept has since been written into."""
        return any(a.shape != shape or a.tobytes() != data for a, shape, data in self._kept)

    def keep(self, result, inputs: dict) -> None:
        import numpy as np

        given = [a for v in inputs.values() for a in arrays_in(v)]
        kept, size = [], 0
        for a in arrays_in(result):
            size += a.nbytes
            if size > KEPT_BYTES:
                kept = []
                break
            if not any(np.may_share_memory(a, b) for b in given):
                kept.append((a, a.shape, a.tobytes()))
        self._kept = kept
