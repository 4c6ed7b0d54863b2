"""Writes junk into "the oracle cache" on every call, where the judge's own process would find it:
$DOJO_STATE_DIR or .dojo/ in the current folder. In the worker, the environment is its own and the
current folder is its temporary one: the junk lands there, harmlessly, and the answer is right."""
import os

import numpy as np

KATA = "softmax"
ROUTE = "dojo test"  # an attack on the worker, contained by the same code whichever route calls it
EXPECT = 'All '  # the verdict must say this
PASSES = True  # harmless: a correct answer, it must pass


def softmax(x, axis=-1):
    folder = os.environ.get('DOJO_STATE_DIR', '.dojo')
    os.makedirs(os.path.join(folder, 'cache'), exist_ok=True)
    with open(os.path.join(folder, 'cache', 'oracle.softmax.npz'), 'wb') as f:
        f.write(b'junk')
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
