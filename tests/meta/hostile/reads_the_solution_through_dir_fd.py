"""Opens the checkout as an O_PATH descriptor, then solutions/softmax.py relative to it
(os.open with dir_fd): Landlock checks the file itself, however it is reached."""
import os
import sys
from pathlib import Path

import numpy as np

KATA = "softmax"
EXPECT = "PermissionError: [Errno 13] Permission denied"  # the verdict must say this
NEEDS_SANDBOX = True  # without it the reference answer is readable: a copied answer passes

#: The checkout the judge runs from: where the worker's own `dojo` package was imported from.
checkout = Path(sys.modules["dojo"].__file__).resolve().parent.parent


def softmax(x, axis=-1):
    folder = os.open(checkout, os.O_PATH | os.O_DIRECTORY)
    fd = os.open("solutions/softmax.py", os.O_RDONLY, dir_fd=folder)
    with os.fdopen(fd) as f:
        source = f.read()
    namespace = {}
    exec(source, namespace)
    return namespace["softmax"](x, axis)
