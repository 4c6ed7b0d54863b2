"""What the candidate's code may not do while the judge runs it, enforced while it runs.

Cheating in practice only cheats oneself; this is here so that a verdict means something (an
interview score, the history), and so that no code under judgement can end, hang or fool the
judge by accident. While the candidate's module is imported and while its function runs:

- **NumPy only.** Importing torch, jax, tensorflow, scipy, sklearn … fails with the NumPy-only
  message, however it is spelled (``exec``, ``importlib``, ``__import__``), and so does importing
  the judge (``tests``, ``conftest``, ``dojo``) or the reference answers: those modules are hidden
  from ``sys.modules`` for the call, and an import hook refuses them. Opening files of the
  judge, the reference answers or the state folder is refused (an audit hook).
- **No ending the judge.** ``sys.exit``, ``os._exit``, ``KeyboardInterrupt`` raised by the code,
  pytest's ``exit``/``skip``, killing a process, starting one: each becomes an ordinary failure
  of the candidate's code (``CandidateEscape``) that says what was done and where. A real Ctrl-C
  still stops the run.
- **No changing the judge's NumPy.** NumPy's error state and print options are put back after
  every call, and a call that replaced a function of the ``numpy`` module (``np.allclose = …``)
  has it put back and fails.
- **Bounded output.** What the code prints is kept up to ``OUTPUT_LIMIT`` characters a call
  and ``OUTPUT_TOTAL`` in all, with a note that the rest was dropped.

POSIX and CPython. Installed once per judge process by ``install()``; the flag that switches it
on is set only inside ``running()``.
"""

from __future__ import annotations

import contextlib
import io
import os
import signal
import sys
from pathlib import Path

from dojo.loader import FORBIDDEN, KataTimeout

ROOT = Path(__file__).resolve().parent.parent
#: Top-level modules the candidate's code may not import: the libraries that would do the kata,
#: and the judge itself.
JUDGE_MODULES = ("tests", "conftest", "dojo", "solutions")
OUTPUT_LIMIT = 10_000
#: ... and at most this much in all, per judge process.
OUTPUT_TOTAL = 200_000
_output_left = OUTPUT_TOTAL
PROCESS_EVENTS = {
    "os.kill": "sends a signal to a process",
    "os.killpg": "sends a signal to a process group",
    "os.fork": "starts a process (os.fork)",
    "os.forkpty": "starts a process (os.forkpty)",
    "os.posix_spawn": "starts a process",
    "os.spawn": "starts a process",
    "os.exec": "replaces the process (os.exec*)",
    "os.system": "runs a shell command",
    "subprocess.Popen": "starts a process (subprocess)",
}


class CandidateEscape(Exception):
    """The candidate's code tried to end, fool or leave the judge; this failure says how."""


class NumpyOnlyImport(ImportError):
    """An import the NumPy-only rule forbids, attempted while the candidate's code ran."""


_active = False
_installed = False
_protected: tuple[Path, ...] = ()
_allowed: Path | None = None
_real_exit = os._exit
_real_abort = os.abort
_numpy = None  # (module, error state, print options, its functions) as the judge set them
_hidden_names: tuple[int, list[str]] = (-1, [])  # (len(sys.modules) when computed, names)


def _to_hide() -> list[str]:
    """The loaded modules to hide during a call (recomputed only when modules were added)."""
    global _hidden_names
    if _hidden_names[0] != len(sys.modules):
        _hidden_names = (len(sys.modules), [n for n in list(sys.modules) if _blocked_name(n)])
    return _hidden_names[1]


def _blocked_name(name: str) -> bool:
    top = name.split(".")[0]
    return top in FORBIDDEN or top in JUDGE_MODULES


class _Finder:
    """An import hook that refuses forbidden modules while the candidate's code runs."""

    @staticmethod
    def find_spec(name, path=None, target=None):
        if _active and _blocked_name(name):
            top = name.split(".")[0]
            if top in FORBIDDEN:
                raise NumpyOnlyImport(
                    f"NumPy only: your code imports {name}. The katas are written with NumPy alone "
                    f"({', '.join(FORBIDDEN[:5])} … are not allowed)."
                )
            raise NumpyOnlyImport(f"your code imports {name}, part of the judge: a kata may use NumPy only.")
        return None


def _audit(event: str, args) -> None:
    if not _active:
        return
    if event == "open" and args and isinstance(args[0], (str, bytes, os.PathLike)):
        try:
            path = Path(os.fsdecode(args[0])).resolve()
        except (OSError, ValueError):
            return
        if _allowed is not None and (path == _allowed or _allowed in path.parents):
            return
        for folder in _protected:
            if path == folder or folder in path.parents:
                raise PermissionError(
                    f"your code opens {path}: the judge's files, the reference answers and the "
                    f"state folder are not for a kata to read or write"
                )
    elif event in PROCESS_EVENTS or event.startswith("os.exec") or event.startswith("os.spawn"):
        what = PROCESS_EVENTS.get(event, "starts or replaces a process")
        raise CandidateEscape(f"your code {what}: a kata function computes and returns, nothing else")


def _guarded_exit(code=0):
    if _active:
        raise CandidateEscape(f"your code called os._exit({code!r}), which would end the judge without a verdict")
    _real_exit(code)


def _guarded_abort():
    if _active:
        raise CandidateEscape("your code called os.abort(), which would end the judge without a verdict")
    _real_abort()


def install(state_dir: Path | None = None, judged: Path | None = None, root: Path = ROOT) -> None:
    """Install the hooks in this process (once). They act only inside ``running()``. NumPy's
    state as it is now is what every call leaves behind. ``judged``: the folder of the files
    under judgement, which they may always read (the reference answers, when those are judged).
    ``root``: the repository being judged (its tests and solutions are protected too)."""
    global _installed, _protected, _numpy, _allowed
    folders = [root / "tests", root / "solutions", root / "conftest.py", ROOT / "tests", ROOT / "solutions",
               ROOT / "dojo"]
    if state_dir is not None:
        folders.append(Path(state_dir))
    _protected = tuple(f.resolve() for f in folders)
    _allowed = Path(judged).resolve() if judged is not None else None
    import numpy as np

    functions = {name: value for name, value in vars(np).items() if callable(value)}
    _numpy = (np, np.geterr(), np.get_printoptions(), functions)
    if _installed:
        return
    _installed = True
    sys.meta_path.insert(0, _Finder())
    sys.addaudithook(_audit)
    os._exit = _guarded_exit
    os.abort = _guarded_abort


class _Capped(io.TextIOBase):
    """A text stream that keeps the first ``limit`` characters and counts the rest."""

    def __init__(self, limit: int):
        self.limit = limit
        self.kept: list[str] = []
        self.size = 0
        self.dropped = 0

    def writable(self) -> bool:
        return True

    def write(self, text) -> int:
        text = str(text)
        room = self.limit - self.size
        if room > 0:
            self.kept.append(text[:room])
            self.size += min(room, len(text))
        self.dropped += max(0, len(text) - max(room, 0))
        return len(text)

    def text(self) -> str:
        note = f"\n[… {self.dropped} more characters of output dropped]\n" if self.dropped else ""
        return "".join(self.kept) + note


def _restore_numpy() -> list[str]:
    """Put NumPy's global state back; the names of the numpy functions that had been replaced."""
    if _numpy is None:
        return []
    np, err, printoptions, functions = _numpy
    np.seterr(**err)
    if np.get_printoptions() != printoptions:
        np.set_printoptions(**printoptions)
    current = vars(np)
    replaced = [name for name, value in functions.items() if current.get(name) is not value]
    for name in replaced:
        setattr(np, name, functions[name])
    return replaced


@contextlib.contextmanager
def running(what: str = "your code"):
    """Run the candidate's code inside: every rule above holds until the block ends."""
    global _active
    hidden = {name: sys.modules.pop(name) for name in _to_hide() if name in sys.modules}
    global _output_left
    room = max(0, min(OUTPUT_LIMIT, _output_left // 2))
    out, err = _Capped(room), _Capped(room)
    interrupted = []

    def on_sigint(signum, frame):  # a real Ctrl-C, as opposed to `raise KeyboardInterrupt`
        interrupted.append(True)
        raise KeyboardInterrupt

    previous_sigint = None
    try:
        previous_sigint = signal.signal(signal.SIGINT, on_sigint)
    except ValueError:  # not the main thread
        pass
    real_out, real_err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    _active = True
    escape = None
    try:
        yield
    except (KataTimeout, NumpyOnlyImport, CandidateEscape):
        raise
    except KeyboardInterrupt as e:
        if interrupted:
            raise
        escape = (e, f"{what} raised KeyboardInterrupt")
    except SystemExit as e:
        escape = (e, f"{what} called sys.exit({e.code!r}) (SystemExit)")
    except BaseException as e:
        if isinstance(e, Exception) and not type(e).__module__.startswith(("_pytest", "pytest", "hypothesis")):
            raise  # an ordinary error of the code: the judge reports it as such
        escape = (e, f"{what} raised {type(e).__module__}.{type(e).__name__}: {e}")
    finally:
        _active = False
        sys.stdout, sys.stderr = real_out, real_err
        if previous_sigint is not None:
            signal.signal(signal.SIGINT, previous_sigint)
        sys.modules.update(hidden)
        replaced = _restore_numpy()
        for stream, capped in ((real_out, out), (real_err, err)):
            if capped.size or capped.dropped:
                _output_left -= capped.size
                stream.write(capped.text())
    if escape is not None:
        e, message = escape
        raise CandidateEscape(
            f"{message}. A kata function must return its result or raise ValueError; it may not "
            f"end the program or stop the judge."
        ).with_traceback(e.__traceback__) from None
    if replaced:
        raise CandidateEscape(
            f"your code replaced numpy.{replaced[0]}"
            + (f" (and {len(replaced) - 1} more)" if len(replaced) > 1 else "")
            + ": the judge's NumPy is not yours to change (it has been put back)."
        )


def wrap(fn, what: str = "your code"):
    """``fn`` called inside ``running()``."""

    def guarded(*args, **kwargs):
        with running(what):
            return fn(*args, **kwargs)

    guarded.__wrapped__ = fn
    guarded.__name__ = getattr(fn, "__name__", "guarded")
    return guarded
