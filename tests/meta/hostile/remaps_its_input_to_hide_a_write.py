"""Writes zeros into its input after computing a right softmax, but first puts private pages over
the input's memory at the same address (ctypes mmap with MAP_FIXED, copying the values in): the
caller's array, outside the judge, is then those private pages, zeroed. The memory file the judge
reads back never sees the write; the judge also checks, after calls it picks at random, that the
worker still maps every argument from that file (/proc/PID/maps), and says which it does not."""
import ctypes
import mmap

import numpy as np

KATA = "softmax"
ROUTE = "dojo test"  # an attack on the worker, contained by the same code whichever route calls it
EXPECT = "modified its input `x` in place"  # the verdict must say this

_libc = ctypes.CDLL(None, use_errno=True)
_libc.mmap.restype = ctypes.c_void_p
_libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
_page = mmap.PAGESIZE
_map_fixed, _map_private, _map_anonymous = 0x10, 0x02, 0x20


def _private_pages_under(a: np.ndarray) -> bool:
    """Replace the pages under ``a`` by private anonymous ones holding the same bytes."""
    start = a.ctypes.data // _page * _page
    stop = -(-(a.ctypes.data + a.nbytes) // _page) * _page
    saved = ctypes.string_at(start, stop - start)
    got = _libc.mmap(ctypes.c_void_p(start), stop - start, mmap.PROT_READ | mmap.PROT_WRITE,
                     _map_fixed | _map_private | _map_anonymous, -1, 0)
    if got != start:
        return False
    ctypes.memmove(start, saved, stop - start)
    return True


def softmax(x, axis=-1):
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
    if isinstance(given, np.ndarray) and given.dtype == np.float64 and given.size and _private_pages_under(given):
        given[...] = 0.0  # the caller's array, as the caller would see it
    return out
