"""Reading a file the tool keeps (``.dojo/``) so that nothing put in its place can hang or
crash the tool: the one reader every state file goes through.

- **Never blocks.** The path is ``stat``-ed first (which opens nothing): anything but a regular
  file (a FIFO, a device such as a link to ``/dev/zero``, a socket, a folder) is refused before
  it is opened. It is then opened with ``O_NONBLOCK | O_NOCTTY`` (so a FIFO swapped in between
  cannot block the open) and ``fstat``-ed: the file opened must be a regular file and the very
  one that was ``stat``-ed. A link to a regular file is followed, as before (that is the
  "equivalent" of ``O_NOFOLLOW`` here: what matters is what is read, not how it is named).
- **Bounded in size.** At most ``MAX_BYTES`` (8 MiB; the state files are kilobytes, a
  history of thousands of interviews a few MiB) are read; a larger file is refused.
- **Bounded in depth.** Before ``json.loads`` sees a document, its bracket nesting (outside
  strings) is counted; past ``MAX_DEPTH`` (64) levels it is refused, so no ``RecursionError``
  can happen.

Every refusal is a ``ValueError`` (``NotAFile`` with ``kind``, ``TooLarge``, ``TooDeep``) or, for
a folder, ``IsADirectoryError``: the errors a corrupt file already raises, so a caller sets it
aside as it does a corrupt one (``dojo.state.state.set_aside``; the words: ``dojo.state.state.read_error``).
Stdlib only, imports nothing of the tool's (``dojo.text.lang`` reads with it before anything loads).
"""

from __future__ import annotations

import errno
import json
import os
import re
import stat

MAX_BYTES = 8 * 2**20
MAX_DEPTH = 64


class NotAFile(ValueError):
    """Something that is not a regular file: ``kind`` is ``fifo``, ``device``, ``socket`` or ``other``."""

    def __init__(self, kind: str):
        super().__init__(f"not a regular file but a {kind}")
        self.kind = kind


class TooLarge(ValueError):
    def __init__(self, limit: int):
        super().__init__(f"larger than {limit} bytes")
        self.limit = limit


class TooDeep(ValueError):
    def __init__(self, limit: int):
        super().__init__(f"nested more than {limit} levels deep")
        self.limit = limit


def _kind(mode: int) -> str | None:
    """What a file of ``mode`` is, when it is not a regular file (None: it is one)."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR))
    if stat.S_ISFIFO(mode):
        return "fifo"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "device"
    if stat.S_ISSOCK(mode):
        return "socket"
    return "other"


def read_bytes(path, limit: int = MAX_BYTES) -> bytes | None:
    """The file's bytes; None when there is no file. Raises ``OSError`` (it cannot be opened, a
    folder, a loop of links) or ``ValueError`` (``NotAFile``, ``TooLarge``)."""
    try:
        before = os.stat(path)
    except FileNotFoundError:
        if os.path.lexists(path):  # a dangling link: there is something, and it leads nowhere
            raise
        return None
    kind = _kind(before.st_mode)
    if kind:
        raise NotAFile(kind)
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | getattr(os, "O_CLOEXEC", 0))
    try:
        st = os.fstat(fd)
        kind = _kind(st.st_mode)
        if kind:
            raise NotAFile(kind)
        if (st.st_dev, st.st_ino) != (before.st_dev, before.st_ino):  # swapped in between
            raise NotAFile("other")
        chunks, got = [], 0
        while True:
            chunk = os.read(fd, min(1 << 20, limit + 1 - got))
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
            if got > limit:
                raise TooLarge(limit)
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_text(path, limit: int = MAX_BYTES) -> str | None:
    """The file's UTF-8 text (``UnicodeDecodeError`` when it is not), None when there is no file."""
    data = read_bytes(path, limit)
    return None if data is None else data.decode("utf-8")


_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.S)


def check_depth(text: str, limit: int = MAX_DEPTH) -> None:
    """Raise ``TooDeep`` when ``text`` nests brackets (outside JSON strings) past ``limit``."""
    if text.count("[") + text.count("{") <= limit:  # the common case: a glance
        return
    depth = 0
    for token in _TOKENS.finditer(text):
        c = token.group()
        if c in "[{":
            depth += 1
            if depth > limit:
                raise TooDeep(limit)
        elif c in "]}":
            depth -= 1


def loads(text: str | bytes, limit: int = MAX_DEPTH):
    """``json.loads`` of ``text`` once its depth is known to be at most ``limit``."""
    if isinstance(text, (bytes, bytearray)):
        text = bytes(text).decode("utf-8")
    check_depth(text, limit)
    return json.loads(text)


def read_json(path, limit: int = MAX_BYTES, depth: int = MAX_DEPTH):
    """The JSON document in the file at ``path`` (``FileNotFoundError`` when there is none)."""
    text = read_text(path, limit)
    if text is None:
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), str(path))
    return loads(text, depth)
