"""``dojo``: the practice loop. Each command is one small function taking (env, args).

Exit codes (``Exit``): 0 passed / done, 1 a kata failed (or answers disagree), 2 usage error
(bad flag, unknown kata, refused, a file that cannot be written: a full disk, a read-only
folder), 3 internal error (a bug in the tool; please report it), 130 interrupted.

Where things live:

================  ===========================================================================
``common.py``     what every command uses: ``Exit``, ``UsageError``, the argument types
                  (``kata_arg``, ``number``), ``shown``, ``next_kata``, ``current_kata``,
                  ``words`` (a catalogue sentence), ``styled`` (one with styled parts),
                  ``confirm``
``argwords.py``   argparse's own words in the tool's language
``progress.py``   ``dojo`` (the welcome, the progress table, what is due) and ``dojo list``
``check.py``      ``dojo check`` and ``dojo test``: judge, record the verdict, offer the next
``show.py``       ``dojo show``, ``dojo hint``, ``dojo solution``, ``dojo followups``
``backups.py``    ``dojo reset`` and ``dojo restore``
``watch.py``      ``dojo watch``: re-judge on every save, single keys (``Keys``)
``entry.py``      the parser (with the commands of ``dojo.commands.interview``, ``dojo.commands.compare``,
                  ``dojo.commands.drill`` and ``dojo.commands.clean`` registered into it), ``dojo help``, ``main``
================  ===========================================================================
"""

from dojo.commands.cli.backups import backup_first, backup_rows, cmd_reset, cmd_restore
from dojo.commands.cli.check import cmd_check, cmd_test, offer_next, record_verdict
from dojo.commands.cli.common import Exit, UsageError, confirm, current_kata, kata_arg, next_kata, number, shown, words
from dojo.commands.cli.entry import build_parser, cmd_help, main, parse, subparsers, version
from dojo.commands.cli.progress import cmd_list, cmd_progress, progress_table
from dojo.commands.cli.show import cmd_followups, cmd_hint, cmd_show, cmd_solution, next_hint
from dojo.commands.cli.watch import Keys, cmd_watch, file_signature, watch_loop

__all__ = [
    "Exit", "Keys", "UsageError", "backup_first", "backup_rows", "build_parser",
    "cmd_check", "cmd_followups", "cmd_help", "cmd_hint", "cmd_list", "cmd_progress", "cmd_reset",
    "cmd_restore", "cmd_show", "cmd_solution", "cmd_test", "cmd_watch", "confirm", "current_kata",
    "file_signature", "kata_arg", "main", "next_hint", "next_kata", "number", "offer_next", "parse",
    "progress_table", "record_verdict", "shown", "subparsers", "version", "watch_loop", "words",
]
