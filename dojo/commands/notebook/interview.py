"""``%kata interview KATA [--minutes N]``: the timed interview in a notebook.

The interview itself is the terminal's: ``dojo interview KATA --minutes N`` runs in a child of
the kernel (a fresh process, its own session), its keys on a pipe, so the attempt copy in the
attempts folder, the clock, the judge runs, the hard stop that freezes the answer, the report
and the history are exactly the terminal's. The notebook:

- shows the countdown with a small script in the output (no ipywidgets): it counts down in the
  browser from the time left when the output was made, so it keeps running between cells;
- makes each ``%%kata KATA`` run of that kata a save: the cell goes into the attempt file (never
  ``katas/``), runs in the notebook, and the cell waits for the interview's judge run of exactly
  that content (``interview.json``: the hash judged) and shows how many properties pass;
- refuses a save once the clock has run out (the interview froze what it had seen), and shows
  the report when the interview has ended;
- ``%kata submit`` and ``%kata abandon`` press ``s`` / ``q`` (and ``y`` to confirm).

Kernel → Interrupt while a cell waits stops the waiting; the interview goes on. When the
kernel dies the interview gets SIGHUP, as a closed terminal does: it stays open for
``dojo interview --resume``.
"""

from __future__ import annotations

import subprocess
import time
import uuid
from pathlib import Path

#: How often a waiting cell looks at the interview again, in seconds.
TICK = 0.1
#: How long a cell waits for the interview to open, to judge a save, or to end after a submit.
WAIT = 300.0


class NotebookInterview:
    def __init__(self, env, kata, proc: subprocess.Popen, log: Path, scratch, holder: dict):
        self.env, self.kata, self.proc, self.log, self._scratch = env, kata, proc, log, scratch
        self.holder = holder  # where the kernel keeps its running interview (magics.INTERVIEW)
        self.shown_to = 0  # how much of the interview's output the notebook has shown

    # -- what the interview says and keeps ----------------------------------------------------

    def output(self, new_only: bool = True) -> str:
        data = self.log.read_text(encoding="utf-8", errors="replace") if self.log.exists() else ""
        start = self.shown_to if new_only else 0
        self.shown_to = len(data)
        return data[start:]

    def problem(self) -> dict | None:
        """The running problem as ``interview.json`` has it (read only: the interview owns it)."""
        try:
            from dojo.text import safe_read

            data = safe_read.read_json(self.env.state_dir / "interview.json")
            current = data.get("current")
            return current if isinstance(current, dict) and current.get("kata") == self.kata.module else None
        except (OSError, ValueError, AttributeError):
            return None

    def left(self, p: dict) -> float:
        """Seconds left on the clock, as the interview counts them (elapsed at its last tick plus
        the wall-clock time since)."""
        return float(p["limit_s"]) - (float(p["elapsed_s"]) + max(0.0, self.env.now() - float(p["tick_wall"])))

    def attempt(self, p: dict) -> Path:
        from dojo.commands.interview.state import inside

        inside(self.env, p["folder"])  # never a path outside the state folder
        return self.env.state_dir / p["folder"] / f"{self.kata.module}.py"

    def ended(self) -> bool:
        return self.proc.poll() is not None

    def press(self, *keys: str) -> None:
        try:
            self.proc.stdin.write("".join(keys).encode())
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            pass

    def wait_until(self, ready, handle, what: str) -> bool:
        """Wait (progress in ``handle``) until ``ready()`` or the interview ends; False on ending."""
        from dojo.commands.notebook import html
        from dojo.commands.notebook.html import show

        start = time.monotonic()
        while not ready():
            if self.ended():
                return False
            if time.monotonic() - start > WAIT:
                return False
            show(html.progress(self.kata, time.monotonic() - start, what=what), handle)
            try:
                self.proc.wait(timeout=TICK)
            except subprocess.TimeoutExpired:
                pass
        return True

    # -- the notebook's side ----------------------------------------------------------------

    def save(self, cell: str, run_here) -> None:
        """A ``%%kata`` run of the interview's kata: a save of the attempt file, judged by the
        interview; the cell shows how many properties pass (as the terminal does)."""
        from dojo.commands.interview.attempt import sha
        from dojo.commands.notebook import html
        from dojo.text.messages import t as t_
        from dojo.commands.notebook.html import show
        from dojo.state.state import atomic_write_bytes

        p = self.problem()
        if self.ended() or p is None or self.left(p) <= 0:
            return self.finished(refused=True)
        source = cell if cell.endswith("\n") else cell + "\n"
        data = source.encode("utf-8")
        path = self.attempt(p)
        unchanged = path.exists() and path.read_bytes() == data
        atomic_write_bytes(path, data, self.env)
        run_here(source, path)
        if unchanged:
            self.press("t")  # no save to notice: judge it now
        want = sha(data)

        def judged():
            q = self.problem()
            return q is not None and q.get("judged") == want and q.get("verdict")
        handle = None
        try:  # an interrupt from the first progress line to the count on screen stops here
            handle = show(html.progress(self.kata, 0.0, what="interview"))
            q = self.problem() if self.wait_until(judged, handle, "interview") else None
            if q is not None and q.get("verdict"):
                show(html.box(html.interview_count(q["verdict"]) + self.countdown(q)), handle)
                return None
        except KeyboardInterrupt:
            show(html.note(t_("notebook.interview.stopped-waiting")), handle)
            raise
        show("", handle)  # the interview ended before it judged this save
        return self.finished()

    def hint(self) -> None:
        """``%kata hint KATA`` during its interview: the interview's own hint (the key h), which
        costs points in its report as in the terminal, not the practice hint."""
        from dojo.commands.notebook import html
        from dojo.commands.notebook.html import show

        p = self.problem()
        if self.ended() or p is None or self.left(p) <= 0:
            return self.finished()
        self.output()  # what was said before is not this hint
        self.press("h")
        handle = show(html.progress(self.kata, 0.0, what="interview-hint"))
        said = ""

        def answered() -> bool:  # the interview says the hint (or that there is none left) at once
            nonlocal said
            said += self.output()
            return said.endswith("\n")
        if not self.wait_until(answered, handle, "interview-hint"):
            return self.finished()
        show(html.box(html.pre(said.strip("\n")) + self.countdown()), handle)
        return None

    def countdown(self, p: dict | None = None) -> str:
        from dojo.commands.notebook import html

        p = p or self.problem()
        if p is None:
            return ""
        return html.countdown(self.kata, self.left(p), uuid.uuid4().hex[:10])

    def finished(self, refused: bool = False) -> None:
        """The interview has ended (or its clock ran out): wait for its report and show it."""
        from dojo.commands.notebook import html
        from dojo.text.messages import t as t_
        from dojo.commands.notebook.html import show

        handle = show(html.progress(self.kata, 0.0, what="interview-ending"))
        try:
            self.wait_until(self.ended, handle, "interview-ending")
        except KeyboardInterrupt:
            show(html.note(t_("notebook.interview.stopped-waiting")), handle)
            raise
        said = [t_("notebook.interview.refused")] if refused else []
        if self.ended():
            self.holder["now"] = None
            said.append(t_("notebook.interview.over", kata=self.kata.module))
        show(html.box("".join(html.note(s) for s in said) + html.pre(self.output(new_only=False).strip("\n"))),
             handle)
        if self.ended():
            self._scratch.cleanup()
        return None


def parse(env, words: list[str]):
    """``KATA [--minutes N]``, checked as ``dojo interview`` checks them."""
    import argparse

    from dojo.commands.cli.common import UsageError, kata_arg, number
    from dojo.commands.interview import MAX_MINUTES
    from dojo.text.messages import t

    class Parser(argparse.ArgumentParser):
        def error(self, message):
            raise UsageError(t("notebook.usage.interview", error=message))

    p = Parser(prog="%kata interview", add_help=False)
    p.add_argument("kata")
    p.add_argument("--minutes", type=number(0, MAX_MINUTES, "minutes", low_open=True))
    args = p.parse_args(words)
    return kata_arg(args.kata), args.minutes


def open_elsewhere(env):
    """The kata of an interview left open by an earlier kernel or a terminal (``interview.json``),
    or None."""
    from dojo.catalogue import registry
    from dojo.commands.interview import state

    try:
        session = state.load(env)
        if session is None:
            return None
        return registry.get(session.current.kata if session.current else session.entry.kata)
    except Exception:  # noqa: BLE001 - a damaged file is the interview's to set aside and say
        return None


def start(env, holder: dict, words: list[str]) -> None:
    from dojo.commands.cli.common import UsageError
    from dojo.text.messages import t
    from dojo.commands.notebook import html
    from dojo.commands.notebook.html import show

    running = holder["now"]
    if running is not None and running.ended() and not words:
        return running.finished()
    if running is None or running.ended():
        left_open = open_elsewhere(env)
        if left_open is not None and words != ["--resume"]:  # said as it is, with the way out
            return show(html.box(html.note(t("notebook.interview.open-elsewhere", kata=left_open.module))))
    if not words:  # %kata interview: where the running one is
        if running is None:
            raise UsageError(t("notebook.usage.interview", error=t("notebook.interview.none")))
        return show(html.box(html.pre(running.output(new_only=False).strip("\n")) + running.countdown()))
    if running is not None and not running.ended():
        raise UsageError(t("notebook.interview.already", kata=running.kata.module))
    if words == ["--resume"]:
        kata, minutes = open_elsewhere(env), None
        if kata is None:
            raise UsageError(t("notebook.usage.interview", error=t("notebook.interview.nothing-to-resume")))
        extra = ["--resume"]
    else:
        kata, minutes = parse(env, words)
        extra = [kata.module] + (["--minutes", f"{minutes:g}"] if minutes is not None else [])
    return launch(env, holder, kata, extra)


def launch(env, holder: dict, kata, extra: list[str]):
    """The interview in a child of the kernel (``dojo interview EXTRA``), shown once it has
    taken the clock (its state saved after the launch: an interview left open before it is not
    this one)."""
    from dojo.text.messages import t
    from dojo.commands.notebook import html
    from dojo.commands.notebook.html import show
    import os
    import sys
    import tempfile

    from dojo.commands.notebook.process import interrupt_deferred
    from dojo.text import locale

    scratch = tempfile.TemporaryDirectory(prefix="dojo-nb-interview-")
    log = Path(scratch.name) / "output.txt"
    argv = [sys.executable, "-m", "dojo.commands.notebook.child", "--interview", *extra]
    environ = {**os.environ, "DOJO_LANG": locale.LANGUAGE, "NO_COLOR": "1", "PYTHONUNBUFFERED": "1",
               "DOJO_FRONT": "notebook"}
    environ.pop("DOJO_COLUMNS", None)
    launched = env.now()
    with interrupt_deferred() as interrupted, open(log, "wb") as out:  # the child is never lost
        proc = subprocess.Popen(argv, cwd=env.root, env=environ, stdin=subprocess.PIPE, stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)
        iv = NotebookInterview(env, kata, proc, log, scratch, holder)

    def taken() -> bool:
        p = iv.problem()
        return p is not None and float(p.get("tick_wall", 0.0)) >= launched
    try:
        if interrupted:
            raise KeyboardInterrupt
        handle = show(html.progress(kata, 0.0, what="interview-opening"))
        opened = iv.wait_until(taken, handle, "interview-opening")
    except KeyboardInterrupt:
        iv.press("q", "y")
        raise
    if not opened:  # it refused (another interview open, a usage error): say what it said
        show(html.box(html.error(t("notebook.interview.not-started")) + html.pre(iv.output().strip("\n"))), handle)
        scratch.cleanup()
        return None
    holder["now"] = iv
    show(html.box(html.note(t("notebook.interview.how", kata=kata.module)) + html.pre(iv.output().strip("\n"))
                  + iv.countdown()), handle)
    return None


def control(env, holder: dict, command: str, words: list[str]) -> None:
    """``%kata submit`` and ``%kata abandon``: the keys s and q, each confirmed with y."""
    from dojo.commands.cli.common import UsageError
    from dojo.text.messages import t

    running = holder["now"]
    left_open = open_elsewhere(env) if command == "abandon" and (running is None or running.ended()) else None
    if left_open is not None:  # left open by an earlier kernel (or a terminal): end it here
        launch(env, holder, left_open, ["--resume"])
        running = holder["now"]
    if running is None or words and words[0] != running.kata.module:
        raise UsageError(t("notebook.usage.interview", error=t("notebook.interview.none")))
    if not running.ended():
        running.press("s" if command == "submit" else "q", "y")
    return running.finished()
