"""What the notebook runs in a child of the kernel: ``python -m dojo.commands.notebook.child KATA OUT``
(``%%kata``), or ``python -m dojo.commands.notebook.child --interview KATA [--minutes N]``.

The judge exactly as ``dojo test`` runs it (``dojo.commands.cli.check.judge_and_record``: fresh pytest
processes, the verdict kept as the kata's progress), then the verdict as JSON in OUT for the
kernel to render. With ``--file PATH`` (the interview's attempt copy) that file is judged
instead, and nothing is recorded: the interview keeps its own record.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--interview"]:
        return interview(argv[1:])
    parser = argparse.ArgumentParser(prog="python -m dojo.commands.notebook.child")
    parser.add_argument("kata")
    parser.add_argument("out")
    parser.add_argument("--file", default=None)
    args = parser.parse_args(argv)
    from dojo.text import lang, locale
    from dojo.catalogue import registry
    from dojo.worker import sandbox
    from dojo.catalogue.env import Env

    sandbox.die_with_parent(parent=os.getppid())  # the kernel gone (even by kill -9): so is this run
    env = Env.from_os()
    locale.set_language(lang.choose(None, state_dir=env.state_dir))
    kata = registry.get(args.kata)
    if args.file:
        from dojo.judge.runner import judge

        verdict = judge(env, kata, Path(args.file).parent)
    else:
        from dojo.commands.cli.check import judge_and_record

        verdict, _ = judge_and_record(env, kata)
    from dojo.state.state import atomic_write_text

    atomic_write_text(Path(args.out), json.dumps(dataclasses.asdict(verdict), allow_nan=True), env)
    return 0


def interview(argv: list[str]) -> int:
    """``dojo interview ARGS`` for a notebook (``dojo.commands.notebook.interview``): the terminal's
    interview, its keys on a pipe. When the kernel dies it gets SIGHUP, as when a terminal
    closes: the interview stays open for ``dojo interview --resume``."""
    import signal

    from dojo.worker import sandbox
    from dojo.commands.cli import main as dojo

    sandbox.die_with_parent(signal.SIGHUP, parent=os.getppid())
    return dojo(["interview", *argv])


if __name__ == "__main__":
    sys.exit(main())
