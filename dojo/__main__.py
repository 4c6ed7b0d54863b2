import sys

if len(sys.argv) > 1 and sys.argv[1] in ("test", "check", "watch", "interview", "drill", "compare"):
    # A command that runs candidates' code: the process that runs it (it imports NumPy) starts
    # now, on the other core, while the tool itself starts (dojo/worker/workers.py).
    from dojo.worker.workers import Zygote

    Zygote._mine = Zygote.start(export=True)

from dojo.commands.cli import main  # noqa: E402

raise SystemExit(main())
