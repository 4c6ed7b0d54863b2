"""A wrong softmax (half the right answer) that prints terminal escape sequences: clear the
screen, a fake green "every property passes", then the conceal attribute so that what follows
is invisible; and raises a ValueError whose message carries the same sequences for an empty
axis. The judge spells out every control character the candidate's code writes (``\\x1b``), in
what it printed and in its messages, so none reaches a terminal."""
import numpy as np

KATA = "softmax"
EXPECT = "is wrong"  # the verdict must say this
PRINTS_ESCAPES = True  # no raw escape character may reach the output

_FAKE = "\x1b[2J\x1b[3J\x1b[H\x1b[32m✓ every property passes\x1b[0m\n\x1b[8m"


def softmax(x, axis=-1):
    print(_FAKE, end="")
    x = np.asarray(x, dtype=np.float64)
    if x.ndim == 0:
        raise ValueError("softmax needs at least one dimension")
    if not -x.ndim <= axis < x.ndim:
        raise ValueError("axis out of range")
    if x.shape[axis] == 0:
        raise ValueError(_FAKE + "empty axis")
    if np.isnan(x).any() or np.isposinf(x).any():
        raise ValueError("NaN or +inf")
    peak = x.max(axis=axis, keepdims=True)
    if np.isneginf(peak).any():
        raise ValueError("a slice is entirely -inf")
    e = np.exp(x - peak)
    return e / e.sum(axis=axis, keepdims=True) / 2
