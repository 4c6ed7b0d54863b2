"""A call's array arguments in memory the judge reads itself: whether the call wrote into them is
the judge's finding, never the worker's report.

The judge (``SharedInputs``, in ``dojo.worker.workers``) writes every top-level ``ndarray`` argument of
a call, in its own layout (C or Fortran order, or a strided view), into one anonymous memory
file (``memfd``, sealed against resizing), passes its descriptor with the request (``SCM_RIGHTS``), and keeps its own copy of the bytes. The worker
(``attach``, in ``dojo.worker.zygote_child``) maps the file shared, closes the descriptor (keeping none:
the mapping is made through the C library, not ``mmap.mmap``, which holds a duplicate) and gives the
candidate's function arrays that *are* that memory. After the answer, the judge reads the file
through its own descriptor and compares: a write into an argument shows there, whatever the
code in the kata file did to the worker (the worker's own comparison, a trace function, NumPy
itself), because none of that runs in the judge.

What stays with the worker: arguments that are not arrays (lists, the "array-like" forms of a
contract, scalars) are compared by the worker before and after the call (``zygote_child._call``),
so code that rewrites the worker could hide a write into a list. And a worker rewritten to hand
the function private copies of the shared arrays makes the function, as the judge calls it,
leave its inputs alone: the judge sees the calls, not the code.

Stdlib, and NumPy lazily.
"""

from __future__ import annotations

import os

#: Each array starts on a multiple of this many bytes (a cache line; NumPy's own alignment).
ALIGN = 64
#: The dtypes shared (the wire's plain kinds): booleans, numbers, strings, dates.
KINDS = "biufcSUmM"


def _shareable(value) -> bool:
    import numpy as np

    return (type(value) is np.ndarray and value.size > 0 and value.dtype.kind in KINDS
            and value.dtype.fields is None and value.dtype.subdtype is None)


def _span(value) -> tuple[bytes, tuple | None]:
    """The bytes ``value`` spans in memory, and its strides where it is not C-contiguous (a
    Fortran-ordered array, a view of every other entry): the worker's array then has the same
    layout as the caller's, so an answer that assumes C order meets what a caller can give it.
    A negative stride is given as a C-ordered copy."""
    if value.flags.c_contiguous or min(value.strides) < 0:
        import numpy as np

        return np.ascontiguousarray(value).tobytes(), None
    import ctypes

    return ctypes.string_at(value.ctypes.data, _extent(value.shape, value.strides, value.itemsize)), value.strides


def _extent(shape, strides, itemsize: int) -> int:
    """The bytes from an array's first entry to the end of its last (strides not negative)."""
    return itemsize + sum((int(n) - 1) * s for n, s in zip(shape, strides))


def _memory_file(size: int) -> int:
    """A descriptor of ``size`` bytes of anonymous memory (a temporary file where there is no memfd)."""
    if hasattr(os, "memfd_create"):
        fd = os.memfd_create("dojo-inputs", os.MFD_CLOEXEC | getattr(os, "MFD_ALLOW_SEALING", 0))
    else:  # pragma: no cover - macOS
        import tempfile

        f = tempfile.TemporaryFile()
        fd = os.dup(f.fileno())
        f.close()
    os.ftruncate(fd, size)
    return fd


def _seal(fd: int) -> None:
    """No one may grow or shrink the file any more (a worker that truncates it would make the
    judge read past its end)."""
    try:
        import fcntl

        fcntl.fcntl(fd, fcntl.F_ADD_SEALS, fcntl.F_SEAL_SHRINK | fcntl.F_SEAL_GROW | fcntl.F_SEAL_SEAL)
    except (ImportError, AttributeError, OSError):  # pragma: no cover - no seals (older kernel, macOS)
        pass


class SharedInputs:
    """The judge's side: ``kwargs``'s arrays in one memory file, and their bytes as given."""

    def __init__(self, kwargs: dict):
        self.fd: int | None = None
        self._mapped = None  # the file mapped read-only, once its descriptor is closed (``keep_mapped``)
        self._image: bytes | None = None  # the whole file as given, once mapped
        self.layout: dict[str, list] = {}  # name -> [offset, dtype, shape], for the worker
        self._given: dict[str, bytes] = {}
        self._size = 0
        self.rest = {k: v for k, v in kwargs.items() if not (isinstance(k, str) and _shareable(v))}
        shared = {k: v for k, v in kwargs.items() if k not in self.rest}
        if not shared:
            return
        import numpy as np

        offset = 0
        for name, value in shared.items():
            data, strides = _span(value)
            self.layout[name] = [offset, value.dtype.str, list(value.shape)] + ([list(strides)] if strides else [])
            self._given[name] = data
            offset += -(-len(data) // ALIGN) * ALIGN
        self._size = offset
        self.fd = _memory_file(offset)
        try:
            for name, data in self._given.items():
                view, at = memoryview(data), self.layout[name][0]
                while view:
                    view = view[os.pwrite(self.fd, view, at + len(data) - len(view)):]
            _seal(self.fd)
        except BaseException:
            self.close()
            raise

    @property
    def size(self) -> int:
        """Bytes of the memory file (the arrays, aligned)."""
        return self._size

    def keep_mapped(self) -> bool:
        """Go on reading the file through a read-only mapping (made through the C library, so no
        descriptor is kept) and close the descriptor: the late-write check keeps several calls'
        inputs, and their descriptors piled up in the judge and in every process it forks (a
        child with a limit of 64 open files could open none). False where it cannot map."""
        libc = _libc()
        if self.fd is None or libc is None or not self._size:
            return False
        import ctypes
        import mmap
        import weakref

        address = libc.mmap(None, self._size, mmap.PROT_READ, mmap.MAP_SHARED, self.fd, 0)
        if address in (None, ctypes.c_void_p(-1).value):
            return False
        self._mapped = (ctypes.c_char * self._size).from_address(address)
        weakref.finalize(self._mapped, libc.munmap, address, self._size)
        os.close(self.fd)
        self.fd = None
        image = bytearray(self._size)  # the whole file as given (its padding is zeros): one
        for name, data in self._given.items():  # comparison says "unchanged", the usual answer
            image[self.layout[name][0]:self.layout[name][0] + len(data)] = data
        self._image = bytes(image)
        return True

    def _read(self, size: int, offset: int) -> bytes:
        if self.fd is not None:
            return os.pread(self.fd, size, offset)
        import ctypes

        return ctypes.string_at(ctypes.addressof(self._mapped) + offset, size)

    def changed(self) -> dict:
        """The arguments whose memory differs from what was given: name -> the array as it is now."""
        if self.fd is None and self._mapped is None:
            return {}
        if self._image is not None and self._mapped.raw == self._image:
            return {}
        import numpy as np

        changed = {}
        for name, given in self._given.items():
            offset, dtype, shape, *strides = self.layout[name]
            now = self._read(len(given), offset)
            if now != given:
                if len(now) == len(given):
                    changed[name] = np.ndarray(shape, dtype, buffer=now, strides=strides[0] if strides else None).copy()
                else:  # pragma: no cover - the seals forbid shrinking
                    changed[name] = np.zeros(shape, dtype=dtype)
        return changed

    def remapped(self, pid: int, at: int | None = None) -> dict:
        """The arguments whose memory the worker ``pid`` no longer maps from the file where it
        mapped it (code that put private pages over an argument, ``mmap(MAP_FIXED)``, writes where
        the judge cannot see; a second mapping of the file made first, by ``mremap``, or the file's
        mapping moved away, keeps the file mapped, but elsewhere): name -> a stand-in saying so.
        ``at``: the address the worker mapped the file at, from its reply (where it gave none,
        any mapping of the file counts). Read from ``/proc/PID/maps``; {} where it cannot be."""
        if self.fd is None:
            return {}
        at = at if type(at) is int else None
        try:
            inode = os.fstat(self.fd).st_ino
            with open(f"/proc/{pid}/maps", "rb") as f:
                lines = f.read().splitlines()
        except OSError:
            return {}
        covered = []  # the file's byte ranges the worker maps (where it mapped them, with ``at``)
        for line in lines:
            if b"dojo-inputs" not in line:
                continue
            fields = line.split(None, 5)
            try:
                if int(fields[4]) != inode:
                    continue
                start, end = (int(x, 16) for x in fields[0].split(b"-"))
                offset = int(fields[2], 16)
            except (IndexError, ValueError):
                continue
            if at is None or start - offset == at:
                covered.append((offset, offset + end - start))
        covered = _merged(covered)
        from dojo.worker.wire import Foreign

        gone = {}
        for name, (offset, *_) in self.layout.items():
            stop = offset + len(self._given[name])
            if not any(a <= offset and stop <= b for a, b in covered):
                gone[name] = Foreign("remapped", "<its memory was replaced by private pages during the call "
                                                 "(mmap over the caller's array): what was written there is not seen>")
        return gone

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None
        self._mapped = None  # unmapped as it goes


def _merged(ranges: list) -> list:
    """Byte ranges joined where they touch (a mapping split in two by ``mprotect`` is still one)."""
    out: list = []
    for a, b in sorted(ranges):
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


class LayoutError(ValueError):
    """A request whose shared layout the worker cannot map."""


def attach(layout, fd: int | None) -> dict:
    """The worker's side: the shared arrays as views of the judge's memory file (``fd`` is closed)."""
    if not layout:
        if fd is not None:
            os.close(fd)
        return {}
    if fd is None:
        raise LayoutError("a request with shared arrays but no memory file")
    import numpy as np

    try:
        if not isinstance(layout, dict):
            raise LayoutError("a shared layout that is not an object")
        end = 0
        for name, entry in layout.items():
            if not _well_formed(entry):
                raise LayoutError(f"a malformed shared entry for {name!r}")
            itemsize = np.dtype(entry[1]).itemsize
            if len(entry) == 4:  # strided
                span = _extent(entry[2], entry[3], itemsize)
            else:
                span = itemsize
                for n in entry[2]:
                    span *= int(n)
            end = max(end, entry[0] + span)
        memory = _map(fd, end)
    finally:
        os.close(fd)
    return {name: np.ndarray(tuple(entry[2]), dtype=np.dtype(entry[1]), buffer=memory, offset=entry[0],
                             strides=tuple(entry[3]) if len(entry) == 4 else None)
            for name, entry in layout.items()}


def mapped_at(shared: dict, layout) -> int | None:
    """The worker's side: the address its call's memory file is mapped at (the judge checks that
    the file is still mapped there after the call, ``SharedInputs.remapped``)."""
    for name, array in shared.items():
        return int(array.ctypes.data) - int(layout[name][0])
    return None


def _well_formed(entry) -> bool:
    """``[offset, dtype, shape]``, or ``[offset, dtype, shape, strides]`` (one non-negative int
    stride per axis)."""
    if not (isinstance(entry, list) and len(entry) in (3, 4) and isinstance(entry[0], int)
            and isinstance(entry[1], str) and isinstance(entry[2], list)):
        return False
    strides = entry[3] if len(entry) == 4 else []
    return isinstance(strides, list) and (not strides or len(strides) == len(entry[2])) and all(
        isinstance(s, int) and s >= 0 for s in strides)


def _map(fd: int, size: int):
    """``size`` bytes of ``fd`` mapped shared, as a writable buffer that holds no descriptor (the
    standard library's ``mmap`` keeps a duplicate of ``fd`` open, and a worker holds nothing but
    its channel) and is unmapped when the last array on it is gone."""
    import ctypes
    import mmap
    import weakref

    libc = _libc()
    if libc is None:  # pragma: no cover - no C library to ask: the standard library's mapping
        return mmap.mmap(fd, size, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE)
    address = libc.mmap(None, size, mmap.PROT_READ | mmap.PROT_WRITE, mmap.MAP_SHARED, fd, 0)
    if address in (None, ctypes.c_void_p(-1).value):
        raise LayoutError(f"the memory file could not be mapped (errno {ctypes.get_errno()})")
    memory = (ctypes.c_char * size).from_address(address)
    weakref.finalize(memory, libc.munmap, address, size)
    return memory


_LIBC: list = []


def _libc():
    if not _LIBC:
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.mmap.restype = ctypes.c_void_p
            libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                                  ctypes.c_long]
            libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
            _LIBC.append(libc)
        except (OSError, AttributeError, ImportError):  # pragma: no cover
            _LIBC.append(None)
    return _LIBC[0]
