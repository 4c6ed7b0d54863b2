"""The terminal an interview runs in: lines for the record (fitted to the width by
dojo/text/screen.py), one countdown line redrawn in place, and the signals (Ctrl-C, hang-up,
terminate) turned into flags the loop reads."""

from __future__ import annotations

import errno
import os
import select
import signal
import stat
import time

from dojo.text import screen
from dojo.catalogue.env import Env
from dojo.screens.render import duration


def clock_text(seconds: float) -> str:
    return duration(max(0.0, seconds))


def difficulty_words(kata) -> str:
    """A kata's difficulty (easy, medium, hard) in the tool's language."""
    from dojo.commands.cli.common import words

    return words(f"interview.difficulty.{kata.difficulty}")


def around(id: str, slot: str, value: str, **params) -> list[str]:
    """The sentence ``id`` as runs, with ``value`` (a command) in place of ``{slot}`` kept in one
    piece (``screen.keep``): [before, value, after], wherever the language puts it."""
    from dojo.commands.cli.common import words

    before, _, after = words(id, **{slot: "\0", **params}).partition("\0")
    return [before, screen.keep(value), after]


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
    """Lines for the record, plus one live countdown line redrawn in place on a terminal.

    An output that is closed (``dojo interview | head -3``: the reader went away, writing fails
    with EPIPE, or polling the pipe reports an error) is treated like a hang-up: ``on_closed``
    is called once (the interview turns it into a flag its loop reads, as it does a signal),
    and from then on what is written goes to /dev/null, so nothing fails or prints a traceback.
    """

    def __init__(self, env: Env, on_closed=None):
        self.env = env
        try:
            self.live = env.stdout.isatty()
        except (AttributeError, ValueError):
            self.live = False
        self.status_shown = ""
        self.closed = False
        self.on_closed = on_closed
        self.looked_at = 0.0

    def say(self, text: str = "") -> None:
        try:
            if self.status_shown:
                self.env.stdout.write("\r\033[K")
                self.status_shown = ""
            self.env.say(text)
        except OSError as e:
            self._write_failed(e)

    def status(self, text: str) -> None:
        if self.live and text != self.status_shown:
            try:
                self.env.stdout.write("\r" + text + "\033[K")
                self.env.stdout.flush()
            except OSError as e:
                self._write_failed(e)
            self.status_shown = text

    def _write_failed(self, e: OSError) -> None:
        if e.errno != errno.EPIPE:
            raise e
        self.output_closed()

    def watch_output(self) -> bool:
        """Whether the output is closed; a pipe whose reader has gone is noticed here (polled at
        most every half second) even while nothing is written to it."""
        if self.closed:
            return True
        now = time.monotonic()
        if now - self.looked_at < 0.5:
            return False
        self.looked_at = now
        try:
            fd = self.env.stdout.fileno()
            if not stat.S_ISFIFO(os.fstat(fd).st_mode):
                return False
            poller = select.poll()
            poller.register(fd, 0)  # POLLERR and POLLHUP are always reported
            gone = any(ev & (select.POLLERR | select.POLLHUP) for _, ev in poller.poll(0))
        except (AttributeError, OSError, ValueError):
            return False
        if gone:
            self.output_closed()
        return gone

    def output_closed(self) -> None:
        """The output is gone: write to /dev/null from now on, and say so once (``on_closed``)."""
        if self.closed:
            return
        self.closed = True
        self.status_shown = ""
        try:
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, self.env.stdout.fileno())
            os.close(null)
        except (AttributeError, OSError, ValueError):
            pass
        if self.on_closed is not None:
            self.on_closed()

    def columns(self) -> int:
        """The width of the terminal written to (the one that wraps the line), 80 if unknown."""
        return screen.columns(self.env) or 80

    def clear(self) -> None:
        if self.status_shown:
            self.status_shown = ""
            try:
                self.env.stdout.write("\r\033[K")
                self.env.stdout.flush()
            except OSError as e:
                self._write_failed(e)
