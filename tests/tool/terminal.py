"""A real terminal for the tool's tests: run a command in a pseudo-terminal of a given width and
read what it printed, and check what a person would see there.

``in_pty`` gives the command a pty (``os.openpty``) sized with ``TIOCSWINSZ``: the tool sees a
terminal of that many columns, exactly as in a terminal window, and whatever it prints comes
back as it was written (a pty does not wrap; a terminal would wrap a line wider than itself,
mid-word). ``too_wide`` and ``broken_words`` say what is wrong with a screen:

- a line is too wide when it takes more cells than the terminal has (colour codes take none,
  a Chinese character two: rich's ``cell_len``), unless it is one word alone that is wider than
  the whole terminal (a long path: the tool never breaks one; ``unbreakable`` lists them);
- a word is broken when a word of the narrow screen is not a word of the same screen printed
  whole (off a terminal, where nothing is wrapped) but is the start or the end of one: the
  pieces of ``scores`` broken into ``scor`` and ``es``. Words are what ``str.split`` finds,
  without punctuation around them, and have a letter or a digit (a table's rule is no word).
"""

from __future__ import annotations

import fcntl
import os
import re
import select
import struct
import subprocess
import termios
import time

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
#: Around a word, not part of it ("passed:" and "passed" are one word).
PUNCTUATION = ".,:;!?()[]`'\""


def pty_pair(columns: int, rows: int = 50) -> tuple[int, int]:
    """(master, slave) of a new pseudo-terminal ``columns`` wide."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    return master, slave


def in_pty(command: list[str], columns: int, env: dict, cwd, timeout: float = 180,
           keys: list[tuple[str, str]] = ()) -> tuple[int, str]:
    """Run ``command`` on a terminal ``columns`` wide: (exit code, what it printed, as text
    with ``\\n`` line ends). ``keys``: (pattern, key) pairs: once ``pattern`` is on the screen,
    ``key`` is typed (for a command that waits for keys)."""
    master, slave = pty_pair(columns)
    environ = {k: v for k, v in env.items() if k not in ("COLUMNS", "LINES")}
    environ.setdefault("DOJO_LANG", "en")
    proc = subprocess.Popen(command, stdin=slave, stdout=slave, stderr=slave, env=environ, cwd=cwd,
                            start_new_session=True)
    os.close(slave)
    out = b""
    pending = list(keys)
    deadline = time.monotonic() + timeout
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"{command} did not end within {timeout} s; it printed:\n"
                                     + out.decode(errors="replace"))
            ready, _, _ = select.select([master], [], [], min(left, 0.5))
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:  # EIO: the command ended and closed the terminal
                    break
                if not chunk:
                    break
                out += chunk
            if pending and re.search(pending[0][0], ANSI.sub("", out.decode(errors="replace"))):
                os.write(master, pending.pop(0)[1].encode())
            if not ready and proc.poll() is not None:
                break
    finally:
        os.close(master)
        if proc.poll() is None:
            proc.kill()
        proc.wait()
    return proc.returncode, out.decode(errors="replace").replace("\r\n", "\n")


def screen_lines(text: str) -> list[str]:
    """The lines a terminal shows, colour codes removed (a line redrawn with ``\\r``: each
    drawing of it)."""
    return [part for ln in ANSI.sub("", text).split("\n") for part in ln.split("\r")]


def cells(text: str) -> int:
    from rich.cells import cell_len

    return cell_len(text)


def unbreakable(line: str, columns: int) -> bool:
    """One word alone on its line, wider than the whole terminal (a path)."""
    words = line.split()
    return len(words) == 1 and cells(words[0]) > columns


def too_wide(text: str, columns: int) -> list[str]:
    return [ln for ln in screen_lines(text) if cells(ln.rstrip()) > columns and not unbreakable(ln, columns)]


def broken_words(narrow: str, whole: str) -> list[str]:
    """Words of ``narrow`` that are pieces of a word of ``whole``, not words of it."""
    known = {w.strip(PUNCTUATION) for w in ANSI.sub("", whole).split()}
    pieces = set()
    for word in ANSI.sub("", narrow).split():
        word = word.strip(PUNCTUATION)
        if word in known or not any(ch.isalnum() for ch in word):  # a rule (────) is no word
            continue
        if any(len(w) > len(word) and (w.startswith(word) and not _cut(w, len(word), 1)
                                       or w.endswith(word) and not _cut(w, len(w) - len(word), -1))
               for w in known):
            pieces.add(word)
    return sorted(pieces)


def _cut(word: str, at: int, step: int) -> bool:
    """A line may break in ``word`` at ``at`` (beside a Chinese character, or after a path's
    ``/``), or past the punctuation a piece was stripped of
    there ("答：" / ".dojo/…": the piece is "dojo/…", the break beside "：")."""
    if _cjk_cut(word, at) or (0 < at < len(word) and word[at - 1] == "/"):
        return True  # beside Chinese, or a path's folder then its file on the next line (an interview's statement)
    while 0 < at < len(word) and word[at if step > 0 else at - 1] in PUNCTUATION:
        at += step
    return 0 < at < len(word) and _cjk_cut(word, at)


def _cjk_cut(word: str, at: int) -> bool:
    """A line may break inside ``word`` at ``at``: beside a wide (Chinese) character, which
    separates words without spaces (dojo/text/cjk.py)."""
    from dojo.text.cjk import wide

    return wide(word[at - 1]) or wide(word[at])
