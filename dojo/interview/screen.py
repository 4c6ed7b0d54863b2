"""The terminal an interview runs in: lines for the record (fitted to the width by
dojo/screen.py), one countdown line redrawn in place, and the signals (Ctrl-C, hang-up,
terminate) turned into flags the loop reads."""

from __future__ import annotations

import signal

from dojo import screen
from dojo.env import Env
from dojo.render import duration


def clock_text(seconds: float) -> str:
    return duration(max(0.0, seconds))


class Signals:
    """Ctrl-C, hang-up and terminate become flags the loop reads, so no write is cut in half."""

    WATCHED = (signal.SIGINT, signal.SIGHUP, signal.SIGTERM)

    def __init__(self):
        self.got: int | None = None
        self.old: dict = {}

    def _on(self, signum, frame):
        if self.got is None:
            self.got = signum

    def __enter__(self):
        for s in self.WATCHED:
            try:
                self.old[s] = signal.signal(s, self._on)
            except (ValueError, OSError):  # not the main thread: leave the defaults
                pass
        return self

    def __exit__(self, *exc):
        for s, old in self.old.items():
            signal.signal(s, old)


class Detached(Exception):
    """The terminal went away (hang-up or terminate): keep the interview for --resume."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


class Screen:
    """Lines for the record, plus one live countdown line redrawn in place on a terminal."""

    def __init__(self, env: Env):
        self.env = env
        try:
            self.live = env.stdout.isatty()
        except (AttributeError, ValueError):
            self.live = False
        self.status_shown = ""

    def say(self, text: str = "") -> None:
        if self.status_shown:
            self.env.stdout.write("\r\033[K")
            self.status_shown = ""
        self.env.say(text)

    def status(self, text: str) -> None:
        if self.live and text != self.status_shown:
            self.env.stdout.write("\r" + text + "\033[K")
            self.env.stdout.flush()
            self.status_shown = text

    def columns(self) -> int:
        """The width of the terminal written to (the one that wraps the line), 80 if unknown."""
        return screen.columns(self.env) or 80

    def clear(self) -> None:
        if self.status_shown:
            self.env.stdout.write("\r\033[K")
            self.env.stdout.flush()
            self.status_shown = ""
