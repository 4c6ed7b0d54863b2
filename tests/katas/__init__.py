"""Each kata's self-check folder, ``tests/katas/<kata>/``: its known ``wrong/`` and ``right/``
answers (the judge must reject and diagnose the one, accept the other) and, for some, a tool
test of its own (``test_tool.py``). Its judge is ``tests/test_<kata>.py``."""
