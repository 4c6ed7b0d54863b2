"""The judge's pytest plugin, in parts a reader can find by name; ``conftest.py`` registers them.

- ``common``: the checkout, which kata a test file judges (and the judge's NumPy on one thread);
- ``profiles``: Hypothesis profiles and the candidate's budgets;
- ``options``: command-line options and the session's setup (``--impl``, language, seed, zygote);
- ``selector``: what is collected, the contributors' suite, each kata file checked once, the
  ``kata`` fixture;
- ``examples``: each property as it runs (budget shares, bounded shrinking);
- ``report``: each property's record, pytest's text for it, the JSON report for the tool.
"""

PARTS = tuple(f"tests.plugin.{name}" for name in ("common", "profiles", "options", "selector", "examples", "report"))
