"""Takes the judge's import hook out, puts the site-packages of the interpreter the virtual
environment was made from on sys.path, and imports torch or scipy from there (by computed
names). The sandbox must not be able to read any library folder but NumPy's."""
import sys
import sysconfig

import numpy as np

KATA = "softmax"
EXPECT = "cannot be imported"  # the verdict must say this
NEEDS_SANDBOX = True  # without it the hook is the only guard, and it is gone

sys.meta_path[:] = [hook for hook in sys.meta_path if type(hook).__name__ != "_Refuse"]
base = sysconfig.get_paths(vars={"base": sys.base_prefix, "platbase": sys.base_prefix})
sys.path[:0] = [base["purelib"], base["platlib"]]  # searched first
try:
    torch = __import__("to" + "rch")
    library = lambda x, axis: torch.softmax(torch.as_tensor(x), dim=axis).numpy()  # noqa: E731
except (ImportError, OSError):  # not there, or not readable
    special = __import__("sci" + "py.special", fromlist=["softmax"])
    library = special.softmax


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
    return library(np.asarray(x, dtype=np.float64), axis)
