"""How much memory one call of a kata needs, read by the judge from outside the worker (``/proc``).

The code in the kata file runs in the worker and could keep what it needs between calls (a
buffer allocated on the first call and reused), or free it just before the judge looks; what it
reports about itself is never read. So the measure starts from a fresh worker, counts what the
module and a first call leave resident, and adds the rise of resident memory during a second
call. Each part is small for a right answer (docs/hostile.md has the figures).
"""

from __future__ import annotations

from dojo.worker import procfs


def peak(worker, kwargs: dict, cpu: float | None = None):
    """How much memory a call needs, read from outside in a fresh worker (one that has made no
    call yet, so nothing a call keeps is resident before it): what the kata's module holds
    once imported (anonymous memory beyond the zygote's), what a first call leaves resident
    (a buffer or cache kept for later calls), and how far resident memory rises during a
    second call (the kernel's high-water mark, reset just before it). The second call's reply."""
    worker.close()
    if worker.start() is not None:
        return worker.call(kwargs, cpu), None
    module = procfs.anonymous_beyond_parent(worker.pid)
    before = procfs.status_field(worker.pid, "RssAnon")
    warm = worker.call(kwargs, cpu)
    if warm.status != "returned" or worker.pid is None:
        return warm, None
    kept = procfs.status_field(worker.pid, "RssAnon")
    base = procfs.rss(worker.pid, reset=True)
    reply = worker.call(kwargs, cpu)
    peak = procfs.status_field(worker.pid, "VmHWM") if reply.status == "returned" else None
    if None in (module, before, kept, base, peak):
        return reply, None
    return reply, max(0, module) + max(0, kept - before) + max(0, peak - base)
