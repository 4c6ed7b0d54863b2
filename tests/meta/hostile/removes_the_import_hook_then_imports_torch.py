"""Takes the judge's import hook out of sys.meta_path, then imports torch by a computed name and
answers with torch.softmax. The sandbox cannot read torch's files, hook or no hook."""
import importlib
import sys

import numpy as np

KATA = "softmax"
EXPECT = "No module named 'torch'"  # the folder that holds torch cannot even be listed
NEEDS_SANDBOX = True  # without it the hook is the only guard, and it is gone: torch answers


def right_softmax(x, axis=-1):
    """A correct softmax (the part of this file that is not the attack)."""
    x = np.asarray(x, dtype=np.float64)
    if x.ndim == 0:
        raise ValueError("softmax needs at least one dimension")
    if not -x.ndim <= axis < x.ndim:
        raise ValueError("axis out of range")
    if x.shape[axis] == 0:
        raise ValueError("empty axis")
    if np.isnan(x).any() or np.isposinf(x).any():
        raise ValueError("NaN or +inf")
    peak = x.max(axis=axis, keepdims=True)
    if np.isneginf(peak).any():
        raise ValueError("a slice is entirely -inf")
    e = np.exp(x - peak)
    return e / e.sum(axis=axis, keepdims=True)


def softmax(x, axis=-1):
    right_softmax(x, axis)  # the contract's ValueErrors
    sys.meta_path[:] = [hook for hook in sys.meta_path if type(hook).__name__ != "_Refuse"]
    torch = importlib.import_module("to" + "rch")
    return torch.softmax(torch.as_tensor(np.asarray(x, dtype=np.float64)), dim=axis).numpy()
