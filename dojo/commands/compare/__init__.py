"""``dojo compare KATA``: your implementation next to the reference, case by case.

Four sections, each readable on its own (docs/compare.md shows a real run):

1. Agreement: both implementations run on the kata's battery (``dojo/catalogue/katas/<kata>/battery.py``): edge
   cases, seeded random cases and one input per ValueError class. One row per case, rows that
   disagree first. Tolerance: the judge's (rtol 1e-9, atol 1e-12 × the output's scale). A case
   may bound the peak memory (``Case.max_bytes``): values that agree over the bound disagree.
2. Attention maps: the weights of a small causal/masked example, reference and yours side by
   side (``dojo/screens/heatmap.py``); differing cells marked ×, a future leak or a wrong-axis softmax
   called out in words. ``--png PATH`` writes the same picture as a PNG.
3. Speed: reference, yours and torch (float64, one thread each) at six sizes: the least CPU time
   of a call per size with the peak memory of one call beside it (tracemalloc in each worker;
   torch's own profiler for torch), ratio to the reference, how time grows (a least-squares
   exponent with its 95% interval, stated only when the timings support it:
   ``dojo/commands/compare/growth.py``) and how memory grows. Only when every case agrees; torch is
   imported only here (``--no-speed`` skips it).
4. Code: a unified diff against the reference, once the kata passes or with ``--reveal``
   (recorded like ``dojo solution --give-up``).

Your code runs in a child process (``dojo/worker/isolate.py``): every call is bounded by ``--timeout``,
and a file that cannot import, hangs, crashes or raises the wrong exception becomes a row, never
a crash of the tool. Exit code: 0 every case agrees, 1 some case does not, 2 usage error.

What lives where:

- ``command.py``: the command: ``register`` (its arguments), ``cmd_compare`` (``--json -``) and
  ``compare``, which runs ``section_agreement``, ``section_maps``, ``section_speed`` and
  ``section_code`` in order and returns the exit code.
- ``agreement.py``: section 1: both implementations on every case of the battery, and the
  verdict on each (``compare_case``, ``compare_values``, ``memory_verdict``; the tolerance).
- ``maps.py``: section 2: the matrices drawn from the map example, and the sentences on them.
- ``speed.py``: section 3: time at six sizes and peak memory at two, and the verdicts on them.
- ``growth.py``: what the recorded times say about growth: the fit, and the claim (a pure rule).
- ``unlock.py``: section 4: when the code diff may be shown (passed, revealed, ``--reveal``,
  which records a give-up), and the diff.
- ``report.py``: how it reads: the sections as lines fitted to the terminal, and the JSON.
- ``words.py``: values, times and sizes in a few words.
"""

from dojo.commands.compare.agreement import compare_case, compare_values, memory_verdict
from dojo.commands.compare.command import cmd_compare, register
from dojo.commands.compare.maps import pick
from dojo.commands.compare.speed import torch_peak_memory

__all__ = ["cmd_compare", "compare_case", "compare_values", "memory_verdict", "pick", "register", "torch_peak_memory"]
