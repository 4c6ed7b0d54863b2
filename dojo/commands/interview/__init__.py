"""``dojo interview``: a timed mock interview.  ``dojo history``: the interviews so far.

One interview is a queue of problems (katas), each with its own clock. For each problem:

1. a fresh attempt file, copied from the kata's stub, goes into
   ``<state>/attempts/<stamp>-<kata>/<kata>.py`` (katas/ is never touched, and practice
   verdicts in state.json are never changed);
2. the statement is shown (the contract ``dojo show`` prints, and how many properties the
   judge checks; their titles only with ``--coach``) and the clock starts;
3. the attempt file is polled (content hash, debounced); every save is judged by a warm
   judge and only the count of passing properties is shown (``--coach``: the whole verdict).
   Keys: ``s`` submit, ``t`` run the tests now, ``h`` hint (costs points), ``q`` abandon;
4. it ends on submit, abandon, Ctrl-C (an abandon that keeps everything) or time running
   out. Time running out is a hard stop: the file as last seen before the deadline is frozen
   into ``final/<kata>.py`` and that copy is graded;
5. a report (time, properties, judge runs, hints, first failing property, score, follow-up
   questions) is printed and one record is appended to ``<state>/history.jsonl``.

Time. While the process runs, elapsed time comes from ``env.clock`` (monotonic). The running
interview is persisted to ``<state>/interview.json`` once a second as *elapsed seconds* plus
the *wall-clock time of that tick*; ``--resume`` adds the wall-clock gap since the last tick,
so closing the terminal never pauses the clock (docs/interview.md).

Where things live:

==================  ===========================================================================
``command.py``      the command: checking the arguments, picking katas, opening the session
``queue.py``        the queue of problems (``Interview``): start, resume, statement, one problem
                    after another
``loop.py``         ``--loop``: the stages on one clock (``LoopInterview``)
``state.py``        the open interview as dataclasses (Session, Entry, Problem, Loop) and
                    ``interview.json``: read, checked, written, set aside
``attempt.py``      one attempt folder and file: the stub, what was seen before the deadline
``live.py``         the live loop: keys, clock, countdown line, warnings, hints
``scripted.py``     ``--answer FILE --at SECONDS``: the same interview, driven by files
``judging.py``      a judge run on save/t/s as the interviewer shows it; grading the frozen copy
``finish.py``       how a problem ends, **the hard stop that freezes the file**, and its record
``report.py``       the score and the report
``history_view.py`` ``dojo history``
==================  ===========================================================================
"""

from __future__ import annotations

import argparse

from dojo.commands.cli import number
from dojo.commands.interview.command import cmd_interview
from dojo.commands.interview.history_view import cmd_history
from dojo.commands.interview.loop import DEFAULT_MINUTES as DEFAULT_LOOP_MINUTES

MAX_MINUTES = 24 * 60  #: --minutes: at most a day per problem
MAX_AT = 24 * 3600.0  #: --at: at most a day into the interview

__all__ = ["cmd_history", "cmd_interview", "register"]


def register(sub) -> None:
    from dojo.commands.cli import words

    p = sub.add_parser("interview", help=words("interview.help"), description=words("interview.description"))
    p.add_argument("katas", nargs="*", metavar="KATA", help=words("interview.arg.katas"))
    p.add_argument("--minutes", type=number(0, MAX_MINUTES, "minutes", low_open=True),
                   help=words("interview.arg.minutes"))
    p.add_argument("--loop", action="store_true", help=words("interview.arg.loop", minutes=DEFAULT_LOOP_MINUTES))
    p.add_argument("--random", action="store_true", help=words("interview.arg.random"))
    p.add_argument("--coach", action="store_true", help=words("interview.arg.coach"))
    p.add_argument("--manual", action="store_true", help=words("interview.arg.manual"))
    p.add_argument("--resume", action="store_true", help=words("interview.arg.resume"))
    p.add_argument("--answer", metavar="FILE", action="append", help=words("interview.arg.answer"))
    p.add_argument("--at", type=number(0, MAX_AT, "seconds"), metavar="SECONDS", action="append",
                   help=words("interview.arg.at"))
    p.add_argument("--debounce", type=number(0, 10, "seconds"), default=0.05, help=argparse.SUPPRESS)
    p.set_defaults(func=cmd_interview)
    p = sub.add_parser("history", help=words("history.help"))
    p.add_argument("kata", nargs="?", help=words("history.arg.kata"))
    p.add_argument("--all", action="store_true", help=words("history.arg.all"))
    p.set_defaults(func=cmd_history)
