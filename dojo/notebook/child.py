"""What ``%%kata`` runs in a child of the kernel: ``python -m dojo.notebook.child KATA OUT``.

The judge exactly as ``dojo test`` runs it (``dojo.cli.check.judge_and_record``: fresh pytest
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
    parser = argparse.ArgumentParser(prog="python -m dojo.notebook.child")
    parser.add_argument("kata")
    parser.add_argument("out")
    parser.add_argument("--file", default=None)
    args = parser.parse_args(argv)
    from dojo import lang, locale, registry, sandbox
    from dojo.env import Env

    sandbox.die_with_parent(parent=os.getppid())  # the kernel gone (even by kill -9): so is this run
    env = Env.from_os()
    locale.set_language(lang.choose(None, state_dir=env.state_dir))
    kata = registry.get(args.kata)
    if args.file:
        from dojo.runner import judge
        from dojo.state import check_oracle_cache

        check_oracle_cache(env)
        verdict = judge(env, kata, Path(args.file).parent)
    else:
        from dojo.cli.check import judge_and_record

        verdict, _ = judge_and_record(env, kata)
    from dojo.state import atomic_write_text

    atomic_write_text(Path(args.out), json.dumps(dataclasses.asdict(verdict), allow_nan=True), env)
    return 0


if __name__ == "__main__":
    sys.exit(main())
