"""Room 4: running the judge and its verdict. ``runner`` (cold and warm judging), the warm judge
(``warm``, ``judge_server``, ``warm_up``, ``primed``, ``judge_key``), the verdict as data (``verdict``) and the diagnosis of
a known bug (``diagnosis``). Imports only the rooms below it."""
