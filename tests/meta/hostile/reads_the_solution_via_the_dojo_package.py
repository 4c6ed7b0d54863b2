"""Finds the checkout from the worker's own `dojo` package and runs solutions/softmax.py: the
sandbox cannot read the checkout."""
import sys
from pathlib import Path

import numpy as np

KATA = "softmax"
EXPECT = "PermissionError: [Errno 13] Permission denied"  # the verdict must say this
NEEDS_SANDBOX = True  # without it the reference answer is readable: a copied answer passes

#: The checkout the judge runs from: where the worker's own `dojo` package was imported from.
checkout = Path(sys.modules["dojo"].__file__).resolve().parent.parent


def softmax(x, axis=-1):
    namespace = {}
    exec((checkout / "solutions" / "softmax.py").read_text(), namespace)
    return namespace["softmax"](x, axis)
