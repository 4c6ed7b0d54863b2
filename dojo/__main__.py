import sys

if len(sys.argv) > 1 and sys.argv[1] == "compare":
    # compare runs the candidate's code itself: the process that runs it (it imports NumPy)
    # starts now, on the other core, while the tool starts (dojo/worker/workers.py). The
    # verdicts of the other commands come from the warm judge, which has a zygote of its own
    # (one started here would take a core from the verdict); judged cold, they start one then.
    from dojo.worker.workers import Zygote

    Zygote._mine = Zygote.start(export=True)

from dojo.commands.cli import main  # noqa: E402

raise SystemExit(main())
