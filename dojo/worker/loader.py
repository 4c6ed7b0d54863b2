"""Load a candidate's kata file safely: NumPy-only check, unique module names, clear errors.

Shared by the judge (``conftest.py``) and the tool. Nothing here imports NumPy, so the tool
stays fast to start.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import signal
import sys
import threading
import traceback
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType

#: Libraries that would do the kata for you. The katas are NumPy only.
FORBIDDEN = ("torch", "jax", "jaxlib", "tensorflow", "scipy", "sklearn", "keras", "flax", "cupy")


class KataProblem(Exception):
    """A kata file that cannot be judged at all. ``state`` names the kind for the tool."""

    state = "error"

    def __init__(self, message: str, path: Path | None = None, line: int | None = None, said: dict | None = None):
        super().__init__(message)
        self.path = path
        self.line = line
        #: the same as a message of the catalogue (``dojo.text.messages``), when it has one
        self.said = said


class KataImportError(KataProblem):
    state = "cannot-import"


class NumpyOnlyError(KataProblem):
    state = "numpy-only"


class KataTimeout(BaseException):
    """The candidate's code did not return in time.

    A ``BaseException`` on purpose: Hypothesis and the candidate's own ``except Exception``
    blocks must not swallow it or try to shrink it.
    """

    state = "timed-out"

    def __init__(self, *args, said: dict | None = None):
        super().__init__(*args)
        #: what happened, as a message (``dojo.text.messages``), when the code that raised knows one
        self.said = said


def forbidden_imports(source: str | bytes, filename: str = "<kata>") -> list[tuple[int, str]]:
    """(line, module) for every import of a forbidden library, found without running the code."""
    tree = ast.parse(source, filename=filename)
    found = []
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        elif isinstance(node, ast.Call):
            func = node.func
            called = getattr(func, "attr", None) or getattr(func, "id", None)
            if called in ("__import__", "import_module") and node.args:
                arg = node.args[0]
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    names = [arg.value]
        for name in names:
            if name.split(".")[0] in FORBIDDEN:
                found.append((node.lineno, name))
    return sorted(found)


def module_name_for(path: Path) -> str:
    """A module name unique to this file's absolute path, so two implementations never clash."""
    digest = hashlib.sha1(str(path.resolve()).encode()).hexdigest()[:12]
    return f"_dojo_impl_{path.stem}_{digest}"


def _user_frame(tb, path: Path):
    """The deepest traceback frame that lies in the candidate's file, if any."""
    found = None
    for frame in traceback.extract_tb(tb):
        if Path(frame.filename).resolve() == path.resolve():
            found = frame
    return found


def check_source(path: Path) -> None:
    """Raise a ``KataProblem`` if the file at ``path`` is missing, does not parse, or imports a
    forbidden library, found without running any of it."""
    from dojo.text.messages import message, text

    from dojo.text import safe_read

    path = Path(path)
    try:  # never blocks: a FIFO in the answer's place hung the judge here
        data = safe_read.read_bytes(path, limit=2**30)
    except (safe_read.NotAFile, IsADirectoryError):
        said = message("kata.not-a-file", file=str(path))
        raise KataImportError(text(said, "en"), path, said=said) from None
    if data is None:
        said = message("kata.missing", file=str(path))
        raise KataImportError(text(said, "en"), path, said=said)
    try:  # the bytes, as an import reads them: a coding line (PEP 263) is honoured
        bad = forbidden_imports(data, str(path))
    except (MemoryError, RecursionError) as e:  # the parser gives up (10 000 nested operators):
        said = message("kata.too-nested", file=path.name, error=type(e).__name__)  # so would the import
        raise KataImportError(text(said, "en"), path, said=said) from None
    except ValueError as e:  # a null byte (Python 3.11: ValueError; 3.12 and later: SyntaxError)
        said = message("kata.syntax-error.no-line", file=path.name, error=str(e), source_text="")
        raise KataImportError(text(said, "en"), path, said=said) from None
    except SyntaxError as e:
        shown = f"\n    {e.text.rstrip()}" if e.text else ""
        said = (message("kata.syntax-error", file=path.name, line=e.lineno, error=str(e.msg), source_text=shown)
                if e.lineno else message("kata.syntax-error.no-line", file=path.name, error=str(e.msg), source_text=shown))
        raise KataImportError(text(said, "en"), path, e.lineno, said) from None
    if bad:
        line, name = bad[0]
        said = numpy_only_message(path.name, name, line)
        raise NumpyOnlyError(text(said, "en"), path, line, said)


def numpy_only_message(file: str, module: str, line: int | None) -> dict:
    """What breaking the NumPy-only rule says (the rule itself is the verdict's label)."""
    from dojo.text.messages import message

    forbidden = list(FORBIDDEN[:5])  # joined in the language that shows it
    if line is None:
        return message("kata.numpy-only.no-line", file=file, module=module, forbidden=forbidden)
    return message("kata.numpy-only", file=file, module=module, line=line, forbidden=forbidden)


def load_kata(path: Path, function: str):
    """Load ``function`` from the kata file at ``path`` into this process, or raise a
    ``KataProblem`` saying why. Only for the project's own files (the reference answers, the
    catalogue of wrong ones): a candidate's file runs in a worker (``dojo.worker.remote``)."""
    path = Path(path)
    check_source(path)
    name = module_name_for(path)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    from dojo.text.messages import message, text

    try:
        with time_limit(10.0, what=message("worker.importing", file=path.name)):
            spec.loader.exec_module(module)
    except KataTimeout:
        sys.modules.pop(name, None)
        raise
    except Exception as e:  # the module failed at import time
        sys.modules.pop(name, None)
        frame = _user_frame(e.__traceback__, path)
        where = message("kata.cannot-import.at", line=frame.lineno, source_text=frame.line) if frame else ""
        said = message("kata.cannot-import", file=path.name, type=type(e).__name__, text=str(e), where=where)
        raise KataImportError(text(said, "en"), path, frame.lineno if frame else None, said) from None
    fn = getattr(module, function, None)
    if not callable(fn):
        said = message("kata.no-function", file=path.name, function=function)
        raise KataImportError(text(said, "en"), path, said=said)
    return fn


@contextmanager
def time_limit(seconds: float | None, what="your function", cpu: bool = False):
    """Raise ``KataTimeout`` inside the block once ``seconds`` have passed (main thread, Unix):
    seconds of the wall clock, or with ``cpu`` of this process's CPU time (a busy machine that
    leaves the process waiting does not count; only trusted, in-process code is timed that way).
    ``what``: the code that runs, a message (``worker.your-function``) or plain words.

    Works inside Hypothesis: each call gets its own alarm, and the exception is a
    ``BaseException`` so nothing catches it on the way out. Python ignores an exception raised
    in a garbage-collector callback (Hypothesis registers one), so after the first alarm
    another follows every ``REPEAT`` seconds until the block ends: a hang is still stopped.
    """
    usable = (
        seconds
        and hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
    )
    if not usable:
        yield
        return

    def on_alarm(signum, frame):
        from dojo.text.messages import message, text

        said = message("worker.hung.alarm", what=what, limit=f"{seconds:g}")
        raise KataTimeout(text(said, "en"), said=said)

    which, signum = (signal.ITIMER_PROF, signal.SIGPROF) if cpu else (signal.ITIMER_REAL, signal.SIGALRM)
    previous = signal.signal(signum, on_alarm)
    signal.setitimer(which, seconds, REPEAT)
    try:
        yield
    finally:
        signal.setitimer(which, 0)
        signal.signal(signum, previous)


#: Seconds between the alarms that follow the first one (see ``time_limit``).
REPEAT = 0.1


#: The messages a worker may send as its account of a file it cannot load (dojo/worker/zygote_child.py),
#: with the parameters each takes: the candidate's code runs there and could forge anything else.
LOAD_MESSAGES = {
    "kata.numpy-only": {"file", "module", "line", "forbidden"},
    "kata.numpy-only.no-line": {"file", "module", "forbidden"},
    "kata.no-function": {"file", "function"},
    "kata.cannot-import": {"file", "type", "text", "where"},
    "kata.cannot-import.at": {"line", "source_text"},
}


def load_message(said) -> dict | None:
    """A worker's account of a load failure as a message, if it is one it may send (plain string
    and integer parameters, one nested ``where``), else None."""
    if not isinstance(said, dict) or set(said) != {"id", "params"} or not isinstance(said["params"], dict):
        return None
    allowed = LOAD_MESSAGES.get(said["id"])
    params = said["params"]
    if allowed is None or set(params) - allowed:
        return None
    out = {}
    for key, value in params.items():
        if key == "where" and isinstance(value, dict):
            value = load_message(value)
            if value is None or value["id"] != "kata.cannot-import.at":
                return None
        elif key == "where" and value != "":
            return None
        elif key == "forbidden" and isinstance(value, list):  # names, joined in the language shown
            if len(value) > 10 or not all(isinstance(v, str) and len(v) <= 40 for v in value):
                return None
        elif isinstance(value, bool) or not isinstance(value, (str, int)):
            return None
        out[key] = value[:2000] if isinstance(value, str) else value
    return {"id": said["id"], "params": out}
