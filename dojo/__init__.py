"""attention dojo: write attention from scratch in NumPy, judged by property tests."""

__version__ = "0.1.0"


def load_ipython_extension(ipython) -> None:
    """``%load_ext dojo`` in Jupyter: the ``%%kata`` and ``%kata`` magics (``dojo.commands.notebook``)."""
    from dojo.commands.notebook import load_ipython_extension as load

    load(ipython)
