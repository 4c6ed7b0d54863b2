"""What a worker's answer must look like before the judge uses any of it.

The candidate's code runs in the worker and can write its own frames into its channel, so every
field of an answer is checked for its type here (``problem``); ``dojo.worker.workers`` turns any answer
that fails into "it sent a malformed answer", never a traceback of the judge's; ``end_message``
says how a worker ended.
"""

from __future__ import annotations

import signal

from dojo.text.messages import message

NUMBER = "a number"

#: status -> field -> the types it may have (None: null); fields not named are not used.
FIELDS: dict[str, dict[str, tuple]] = {
    "returned": {"mutated": (list,), "seconds": (NUMBER,)},
    "raised": {"type": (str,), "module": (str,), "said": (dict, None), "message": (str,),
               "value_error": (bool,), "exception": (bool,), "line": (int, None), "source": (str, None),
               "code": (int, str, None), "seconds": (NUMBER,)},
    "ready": {},
    "sandboxed": {"landlock": (int,), "processes": (bool,), "landlock_error": (str,), "seccomp_error": (str,)},
    "cannot-load": {"state": (str,), "message": (str,), "line": (int, None), "said": (dict, None)},
    "timed": {"best": (NUMBER,), "best_cpu": (NUMBER,)},
    "traced": {"peak": (int,)},
}
#: The fields each kind of answer cannot do without.
REQUIRED = {"raised": ("type", "message"), "timed": ("best", "best_cpu"), "traced": ("peak",)}


def _fits(value, kinds: tuple) -> bool:
    for kind in kinds:
        if kind is None and value is None:
            return True
        if kind is NUMBER and isinstance(value, (int, float)) and not isinstance(value, bool):
            return True
        if kind is int and isinstance(value, int) and not isinstance(value, bool):
            return True
        if kind not in (None, NUMBER, int) and isinstance(value, kind):
            return True
    return False


def _name(kind) -> str:
    return "null" if kind is None else kind if isinstance(kind, str) else {
        str: "a string", int: "an integer", bool: "true or false", list: "a list", dict: "an object"}[kind]


def problem(answer: dict, values: dict) -> str | None:
    """What makes ``answer`` (a frame's message) and ``values`` not an answer a worker sends
    (in English words, for the verdict's parentheses); None when they are one."""
    status = answer.get("status")
    if not isinstance(status, str) or status not in FIELDS:
        return "an answer of an unknown kind"
    for key in REQUIRED.get(status, ()):
        if key not in answer:
            return f"a {status!r} answer without {key!r}"
    for key, kinds in FIELDS[status].items():
        if key in answer and not _fits(answer[key], kinds):
            return f"{key!r} is {type(answer[key]).__name__}, not {' or '.join(_name(k) for k in kinds)}"
    if status == "returned":
        if not all(isinstance(k, str) for k in answer.get("mutated", ())):
            return "'mutated' names that are not strings"
        mutated = values.get("mutated")
        if mutated is not None and not (isinstance(mutated, dict) and all(isinstance(k, str) for k in mutated)):
            return "inputs after the call that are not named"
    return None


#: Control characters a terminal obeys (an escape sequence clears the screen, hides text or
#: draws a fake verdict; a carriage return overwrites a line): shown as ``\xNN`` instead.
#: Newlines and tabs stay.
_CONTROLS = {c: f"\\x{c:02x}" for c in (*range(0x00, 0x20), *range(0x7F, 0xA0)) if c not in (0x09, 0x0A)}


def visible(text: str) -> str:
    """``text`` the candidate's code wrote (what it printed, an exception's message), safe to show
    on a terminal: its control characters spelled out, and a lone surrogate (``"\\ud800"``, which
    no terminal can be sent) as its escape."""
    text = text.translate(_CONTROLS)
    try:  # at C speed: a flood of output passes through here, 64 KiB at a time
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text


def name_visible(text: str) -> str:
    """A name the candidate's code chose (a class's), ``visible`` and on one line."""
    return visible(text).replace("\n", "\\n").replace("\t", "\\t")


def made_visible(value, depth: int = 0):
    """``value`` (an answer: a dict of plain JSON) with every string in it (a message, a source
    line, a type's name, a message's parameters) ``visible``."""
    if isinstance(value, str):
        return visible(value)
    if depth > 64:
        return value
    if isinstance(value, dict):
        return {k: made_visible(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list):
        return [made_visible(v, depth + 1) for v in value]
    return value


#: Why a signal most likely ended a worker, by its name.
SIGNAL_WHY = {"SIGSEGV": "worker.end.segv", "SIGKILL": "worker.end.kill", "SIGABRT": "worker.end.abort",
              "SIGBUS": "worker.end.crash", "SIGFPE": "worker.end.crash"}


def end_message(status: dict | None) -> dict:
    """A worker's end, as a message."""
    if not status:
        return message("worker.end.silent")
    if "signal" in status:
        number = status["signal"]
        try:
            name = signal.Signals(number).name
        except ValueError:
            name = f"signal {number}"
        if name in SIGNAL_WHY:
            return message("worker.end.signal-why", signal=name, why=message(SIGNAL_WHY[name]))
        return message("worker.end.signal", signal=name)
    return message("worker.end.exit", code=str(status.get("exit")))
