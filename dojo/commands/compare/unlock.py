"""Section 4's rule: when the code diff against the reference may be shown; and the diff.

The diff is locked until the kata passes (``solved``, recorded by ``dojo test``) or has been
revealed (by ``dojo compare --reveal`` or ``dojo solution --give-up``). ``--reveal`` before the
kata passes is recorded as a give-up, as ``dojo solution --give-up`` is. Showing the diff marks
the kata revealed, so later runs show it without ``--reveal``.
"""

from __future__ import annotations

import difflib
from pathlib import Path

from dojo.commands.cli import shown
from dojo.catalogue.env import Env
from dojo.text.messages import t
from dojo.state.state import Store


def code_unlocked(env: Env, kata, reveal: bool) -> tuple[bool, bool]:
    """(whether the diff is shown, whether this run records a give-up); when it is shown, the
    kata's progress says so (saved now)."""
    store = Store(env)
    entry = store.kata(kata.module)
    # solved, revealed with --reveal, or given up on with `dojo solution --give-up`
    if not (entry["solved"] or entry["revealed"] or reveal):
        return False, False
    gives_up = reveal and not entry["solved"]
    if gives_up:
        entry["gave_up"] = True
    entry["revealed"] = True
    store.save()
    return True, gives_up


def locked_text(env: Env, kata) -> str:
    """What section 4 says while the diff is locked."""
    return t("compare.code.locked", file=shown(env, env.kata_file(kata)), kata=kata.module)


def code_diff(reference: Path, yours: Path, ref_name: str, your_name: str) -> list[str]:
    a = reference.read_text(encoding="utf-8", errors="replace").splitlines()
    try:
        b = yours.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError as e:
        return [t("compare.code.cannot-read", file=your_name, error=str(e))]
    return list(difflib.unified_diff(a, b, t("compare.code.reference", file=ref_name), t("compare.code.yours", file=your_name),
                                     lineterm=""))
