"""The judge's door: its plugin lives in ``tests/plugin/`` (one module a part), registered here.

What the judge does:

- ``pytest`` judges ``katas/`` (your work); ``pytest --impl solutions`` the reference answers
  and, with them, the judge's own self-check (tests/meta); ``pytest --impl PATH`` any folder
  holding modules named like the katas.
- Each kata's tests load only that kata's file from the chosen folder, by path, under a
  module name unique to that path.
- Before running a kata's properties, its file is checked once: cannot import, breaks the
  NumPy-only rule, still the untouched stub, or hangs. Each of those is reported as one line
  for the kata, instead of a failure per property.
- The candidate's code never runs in the judge's process: each kata file is imported and called
  in a sandboxed worker (``dojo/worker/remote.py``, ``dojo/worker/workers.py``, ``dojo/worker/zygote.py``, ``dojo/worker/zygote_child.py``), and every
  call has a limit on its CPU time (``--kata-timeout``).
- A failing property prints what it means in interview terms, the shrunk input and expected
  vs got; not a traceback through the judge.
- ``--dojo-json FILE`` writes the verdicts for the ``dojo`` tool.
"""

from tests.plugin import PARTS

pytest_plugins = list(PARTS)
