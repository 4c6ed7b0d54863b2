"""Writes zeros into its input after computing a right softmax, behind private pages put over the
input's memory (as remaps_its_input_to_hide_a_write does), but first maps the same file pages a
second time elsewhere (``mremap`` with old size 0 duplicates a shared mapping, with no
descriptor), so that /proc/PID/maps still shows the memory file covering every argument's bytes.
The judge now checks that the file is still mapped where the worker mapped it before the call
(its reply says where). Found by stop 53's fresh hostile round."""
import ctypes
import mmap

import numpy as np

KATA = "softmax"
ROUTE = "dojo test"  # an attack on the worker, contained by the same code whichever route calls it
EXPECT = "modified its input `x` in place"  # the verdict must say this

_libc = ctypes.CDLL(None, use_errno=True)
_libc.mmap.restype = ctypes.c_void_p
_libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
_libc.mremap.restype = ctypes.c_void_p
_libc.mremap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_size_t, ctypes.c_int]
_libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
_page = mmap.PAGESIZE
_MAP_FIXED, _MAP_PRIVATE, _MAP_ANONYMOUS, _MREMAP_MAYMOVE = 0x10, 0x02, 0x20, 1
_failed = ctypes.c_void_p(-1).value
_duplicates = []  # (address, size) of the last call's duplicate mappings


def _private_pages_under(a: np.ndarray) -> bool:
    start = a.ctypes.data // _page * _page
    extent = a.itemsize + sum((n - 1) * s for n, s in zip(a.shape, a.strides))  # strided views too
    stop = -(-(a.ctypes.data + extent) // _page) * _page
    size = stop - start
    dup = _libc.mremap(ctypes.c_void_p(start), 0, size, _MREMAP_MAYMOVE)  # the file, mapped again
    if dup in (None, _failed):
        return False
    _duplicates.append((dup, size))
    saved = ctypes.string_at(start, size)
    got = _libc.mmap(ctypes.c_void_p(start), size, mmap.PROT_READ | mmap.PROT_WRITE,
                     _MAP_FIXED | _MAP_PRIVATE | _MAP_ANONYMOUS, -1, 0)
    if got != start:
        return False
    ctypes.memmove(start, saved, size)
    return True


def softmax(x, axis=-1):
    while _duplicates:  # the judge has read the last call's answer (and maybe its maps) by now
        _libc.munmap(*_duplicates.pop())
    given = x
    x = np.asarray(x, dtype=np.float64)
    if x.ndim == 0:
        raise ValueError("softmax needs at least one dimension")
    if not -x.ndim <= axis < x.ndim:
        raise ValueError("axis out of range")
    if x.shape[axis] == 0:
        raise ValueError("empty axis")
    if np.isnan(x).any() or np.isposinf(x).any():
        raise ValueError("NaN or +inf")
    peak = x.max(axis=axis, keepdims=True)
    if np.isneginf(peak).any():
        raise ValueError("a slice is entirely -inf")
    e = np.exp(x - peak)
    out = e / e.sum(axis=axis, keepdims=True)
    if type(given) is np.ndarray and min(given.strides, default=0) >= 0 and given.dtype == np.float64 and given.size and _private_pages_under(given):
        given[...] = 0.0  # the caller's array, as the function sees it: zeroed
    return out
