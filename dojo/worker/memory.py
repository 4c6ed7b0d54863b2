"""How much memory one call of a kata needs, read by the judge from outside the worker (``/proc``).

The code in the kata file runs in the worker and could keep what it needs between calls (a
buffer allocated on the first call and reused), compute a first call with a full matrix and
remember its answer for the next, or free memory just before the judge looks; what it reports
about itself is never read. So the measure starts from a fresh worker and takes, beyond what the
module holds once imported, the larger of

- the first call's rise of resident memory, less the pages of libraries it brought in from
  their files (code a first call touches for the first time: 2-4 MiB, not the answer's doing),
  at most ``LIBRARY_ALLOWANCE`` of them (a call that frees a full matrix and then reads library
  files, mapped, into the room under the high-water mark it left would otherwise have the
  matrix forgiven),
- what the first call left resident (anonymous and shared memory, and files mapped from the
  worker's own folder) plus the rise during a second call.

The worker measured may write no file at all where Landlock holds (its own folder is not
writable either). Elsewhere, files mapped from its own folder count as memory everywhere: a
file there holds an array as well as anonymous memory does. So does every byte the calls write
(to a file, a memory file or a pipe, read back or not: ``wchar`` of /proc/PID/io), added to
both parts: data written out is data kept somewhere, where the resident count cannot see it.
Each part is small for a right answer, which writes only what it prints (docs/benchmarks.md has
the figures).

The resident high-water mark counts file pages too, so a call that drops library pages it had
touched makes room under it for an array. So the calls also run under a limit on the worker's
data (``data_limit``: RLIMIT_DATA, set from outside to what it holds plus the bound): an
allocation past it fails, whatever was dropped first, and the figure is then ``OVER``. The
right answers need 0.1-4.3 MiB of it for both calls (bound 12).
"""

from __future__ import annotations

import math

from dojo.worker import procfs

#: ``peak_of``'s figure when an allocation past ``data_limit`` failed (see ``_cap_data``).
OVER = math.inf

#: The most library pages a first call may bring in without their counting: the right answers
#: bring in 2.3-3.9 MiB (docs/benchmarks.md); more is the call's own doing.
LIBRARY_ALLOWANCE = 6 * 2**20


def _held(pid: int, folder: str) -> tuple[int | None, int | None]:
    """(anonymous + shared + files from ``folder``, library files): what ``pid`` holds resident."""
    anon, shmem = procfs.status_field(pid, "RssAnon"), procfs.status_field(pid, "RssShmem")
    files, own = procfs.status_field(pid, "RssFile"), procfs.resident_under(pid, folder)
    if None in (anon, shmem, files, own):
        return None, None
    return anon + shmem + own, files - own


def _cap_data(pid: int, limit: int) -> bool:
    """Let ``pid``'s data (its heap and private writable mappings: every array it allocates)
    grow by at most ``limit`` bytes: RLIMIT_DATA, soft and hard, set from outside (prlimit).
    The worker cannot raise a hard limit, so past it an allocation fails (MemoryError). This
    is what the resident count cannot be trusted for: a call that drops file pages it had
    touched (libraries mapped ahead, "ballast") makes room for an array under the high-water
    mark. Shared anonymous mappings, which this limit does not see, are refused by the
    worker's seccomp filter. False where it cannot be set."""
    import resource

    data = procfs.status_field(pid, "VmData")
    if data is None or not hasattr(resource, "prlimit"):
        return False
    try:
        resource.prlimit(pid, resource.RLIMIT_DATA, (data + limit, data + limit))
    except (OSError, ValueError):
        return False
    return True


def peak(worker, kwargs: dict, cpu: float | None = None):
    """How much memory a call of ``worker``'s function on ``kwargs`` needs (bytes, or None where
    it cannot be read), measured in a fresh worker as the module says; the second call's reply."""
    replies, needed = peak_of(worker, kwargs, kwargs, cpu)
    return replies[-1], needed


def peak_of(worker, first: dict, second: dict, cpu: float | None = None, data_limit: int | None = None):
    """``([replies], bytes or None)``: as ``peak``, with the first call made on ``first`` and the
    second on ``second`` (two settings measured in the time of one: the second call's rise and
    what the first left behind count together). The replies of the calls made, in order: one
    when the first did not return. The worker measured may write no file (where Landlock holds).
    With ``data_limit``, the calls' data may grow by at most that many bytes (``_cap_data``);
    the figure is ``OVER`` when an allocation failed past it. The worker is closed after the
    calls: the next call gets a fresh one, as any other."""
    worker.close()
    worker.writable = False  # no file to hold what it computes (Landlock: nothing writable)
    try:
        if worker.start() is not None:
            return [worker.call(first, cpu)], None
        capped = data_limit is not None and _cap_data(worker.pid, data_limit)
        replies, needed = _measured(worker, first, second, cpu)
    finally:  # the next call gets a fresh worker, as any other: its folder writable, no limit
        worker.close()
        worker.writable = True
    if capped and any(_out_of_memory(r) for r in replies):
        return replies, OVER
    return replies, needed


def _out_of_memory(reply) -> bool:
    """An allocation failed: in the kata's code (MemoryError raised), or in the worker's own,
    which then ends with ``zygote.OUT_OF_MEMORY``."""
    from dojo.worker.zygote import OUT_OF_MEMORY

    info = reply.info or {}
    if reply.status == "raised":
        return info.get("type") == "MemoryError"
    return reply.status == "died" and (info.get("end") or {}).get("exit") == OUT_OF_MEMORY


def _measured(worker, first: dict, second: dict, cpu: float | None):
    pid, folder = worker.pid, str(worker.folder)
    module = procfs.anonymous_beyond_parent(pid)
    held_before, libraries_before = _held(pid, folder)
    written_before = procfs.written(pid)
    before = procfs.rss(pid, reset=True)
    reply = worker.call(first, cpu)
    if reply.status != "returned" or worker.pid is None:
        return [reply], None
    first_high = procfs.status_field(pid, "VmHWM")
    held_after, libraries_after = _held(pid, folder)
    written_first = procfs.written(pid)
    base = procfs.rss(pid, reset=True)
    replies = [reply, worker.call(second, cpu)]
    second_high = procfs.status_field(pid, "VmHWM") if replies[1].status == "returned" else None
    written_second = procfs.written(pid)
    figures = (module, held_before, libraries_before, before, first_high, held_after, libraries_after,
               base, second_high, written_before, written_first, written_second)
    if None in figures:
        return replies, None
    first_rise = (first_high - before) - min(LIBRARY_ALLOWANCE, max(0, libraries_after - libraries_before))
    later = max(0, held_after - held_before) + max(0, second_high - base)
    written = written_second - written_before
    return replies, max(0, module) + max(0, first_rise + (written_first - written_before), later + written)
