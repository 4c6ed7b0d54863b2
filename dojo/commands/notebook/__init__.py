"""The notebook front-end: ``%load_ext dojo``, then ``%%kata KATA`` cells and ``%kata`` lines.

Nothing here is imported by the command line's own paths (``dojo list`` stays cheap): IPython
is imported only when a kernel loads the extension.

================  ===========================================================================
``magics.py``     ``%%kata KATA`` (write the cell to the kata file, run it here, judge it) and
                  ``%kata show|hint|compare|interview KATA``
``process.py``    a child process started from the kernel (never forked: a kernel has
                  threads), its progress, and Kernel → Interrupt ending its whole tree
``child.py``      what that child runs: the judge exactly as ``dojo test`` runs it, the
                  verdict written as JSON for the kernel to render
``html.py``       the verdict, a command's screen and compare's heatmap as HTML
``generate.py``   ``dojo notebook [KATA …]``: ``notebooks/<kata>.ipynb``
``interview.py``  ``%kata interview KATA --minutes N``: the timed interview in a notebook
================  ===========================================================================
"""

from __future__ import annotations


def load_ipython_extension(ipython) -> None:
    """``%load_ext dojo`` (through ``dojo.load_ipython_extension``)."""
    from dojo.judge import warm
    from dojo.catalogue.env import Env
    from dojo.commands.notebook.magics import register

    register(ipython)
    warm.start_ahead(Env.from_os().root)  # the first %%kata verdict is warm too
