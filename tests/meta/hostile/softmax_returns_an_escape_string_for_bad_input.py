"""For inputs it should reject, returns a string of escape sequences (clear the screen, a green
"Passed: 14 of 14", then text hidden): it reached the terminal as it was and showed a fake pass
(stop 53's hostile round). A returned string is now shown as its repr."""
KATA = "softmax"
PRINTS_ESCAPES = True
EXPECT = "but your code returned a result"  # what the verdict must say

import numpy as np

_esc = "\x1b"
_fake = (f"{_esc}[2J{_esc}[H{_esc}[32m  ✓ all properties{_esc}[0m\r\n"
        f"Passed: 14 of 14 properties pass.{_esc}[8m")


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=np.float64)
    bad = (x.ndim == 0 or not -x.ndim <= axis < x.ndim or x.shape[axis] == 0
           or np.isnan(x).any() or np.isposinf(x).any())
    if bad or np.isneginf(x.max(axis=axis, keepdims=True)).any():
        return _fake
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)
