"""Each kata's self-check folder, ``tests/katas/<kata>/``: its known ``wrong/`` and ``right/``
answers (the judge must reject and diagnose the one, accept the other), its contract written
out again (``valid.py``), its demonstrations' claims (``claims.py``) and, for some, a tool test
(``test_tool.py``) and benchmarks (``benchmark*.py``) of its own. Its judge is
``tests/test_<kata>.py``."""
