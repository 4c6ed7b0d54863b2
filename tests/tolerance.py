"""How close to the oracle an answer must be.

The judge (``tests/judge.py``, ``check_close``) accepts ``got`` for ``want`` when, entry by
entry, ``|got - want| <= atol * max(1, max |want|) + rtol * |want|``, by default with
``RTOL = 1e-9`` and ``ATOL = 1e-12``. Correct answers written differently (einsum, loops,
logsumexp) agree with torch to about 1e-13 relative; realistic bugs are off by far more.
"""

from __future__ import annotations

RTOL = 1e-9
ATOL = 1e-12
