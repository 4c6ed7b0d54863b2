"""Hard-links solutions/softmax.py into its own (writable) temporary folder, or failing that puts
a symbolic link there by os.rename, and reads it from there: Landlock refuses the link and
checks the file a symbolic link leads to."""
import os
import sys
import tempfile
from pathlib import Path

import numpy as np

KATA = "softmax"
EXPECT = "PermissionError: [Errno 13] Permission denied"  # the verdict must say this
NEEDS_SANDBOX = True  # without it the reference answer is readable: a copied answer passes

#: The checkout the judge runs from: where the worker's own `dojo` package was imported from.
checkout = Path(sys.modules["dojo"].__file__).resolve().parent.parent


def softmax(x, axis=-1):
    solution = checkout / "solutions" / "softmax.py"
    here = Path(tempfile.mkdtemp())
    try:
        os.link(solution, here / "copy.py")
    except OSError:
        os.symlink(solution, here / "link.py")
        os.rename(here / "link.py", here / "copy.py")
    namespace = {}
    exec((here / "copy.py").read_text(), namespace)
    return namespace["softmax"](x, axis)
