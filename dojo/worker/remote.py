"""The candidate's function as the judge calls it: a proxy to a sandboxed worker.

``RemoteFunction(path, function)(**kwargs)`` behaves like the candidate's function would, as far
as the judge can tell, without any of the candidate's code running in the judge's process:

- it returns the value the worker sent (rebuilt from an envelope: plain values and arrays only;
  anything else arrives as a ``dojo.worker.wire.Foreign`` stand-in that names its type);
- an exception of the candidate's code becomes ``CandidateError`` (a ``ValueError`` when it was
  one, so a contract check still counts), with the line of the kata file it came from;
- exiting, raising ``SystemExit`` or ``KeyboardInterrupt``, the worker dying, or a malformed
  answer become ``CandidateEscape``, an ordinary failure that says what happened;
- writing into an input becomes ``InputModified``, with the input after the call;
- a call past its CPU limit, or waiting without computing, becomes ``KataTimeout``; so does a
  kata whose calls together pass ``cpu_budget`` (``TooSlow``: the answer is too slow, with its
  figures).

After a worker dies or is stopped, the next call starts a fresh one.
"""

from __future__ import annotations

from pathlib import Path

from dojo.worker.loader import KataTimeout
from dojo.text.messages import message
from dojo.text.messages import text as message_text
from dojo.worker.workers import Limits, Worker

#: CPU seconds all of one kata's calls may take together, in a judge's run.
CPU_BUDGET = 20.0


class CandidateError(Exception):
    """An exception the candidate's code raised (in its worker), rebuilt from its description."""

    def __init__(self, info: dict):
        super().__init__(capped(info.get("message"), MESSAGE_LIMIT) or "")
        # the candidate's code names its exception and its line: a class named with 2 MB went
        # into the state file nine times (a property's category) and pushed it past its size
        # bound, and the next command set the whole file aside, every kata's verdict with it
        self.type_name = capped(info.get("type"), TYPE_NAME_LIMIT) or "Exception"
        self.line = info.get("line") if isinstance(info.get("line"), int) else None
        self.source = capped(info.get("source"), SOURCE_LIMIT)
        #: the NumPy-only rule's refusal as a message (``refusal``), when that is what it was
        self.said = refusal(info.get("said"))

    def __str__(self) -> str:
        return self.args[0] if self.args else ""


#: The longest exception type name, source line and message kept of what the candidate's code
#: raised (the worker sends at most 2000 characters of a message, unless its code forges the frame).
TYPE_NAME_LIMIT, SOURCE_LIMIT, MESSAGE_LIMIT = 120, 400, 2000


def capped(value, limit: int) -> str | None:
    """``value`` as a string of at most ``limit`` characters (cut with "…"); None if it is not one."""
    if not isinstance(value, str):
        return None
    return value if len(value) <= limit else value[: limit - 1] + "…"


#: The messages the worker's import hook may attach to an ImportError (dojo/worker/zygote_child.py), with
#: their parameters: the candidate's code runs there and could forge anything else.
REFUSALS = {"kata.refused-import": {"module", "forbidden"}, "kata.judge-import": {"module"}}


def refusal(said) -> dict | None:
    """The import hook's refusal as a message, if ``said`` is one (plain short strings only)."""
    if not isinstance(said, dict) or set(said) != {"id", "params"} or not isinstance(said["params"], dict):
        return None
    params = said["params"]
    if REFUSALS.get(said["id"]) != set(params) or not all(isinstance(v, str) and len(v) < 200 for v in params.values()):
        return None
    return {"id": said["id"], "params": dict(params)}


class CandidateValueError(CandidateError, ValueError):
    """The candidate's code raised ValueError (or a subclass): what a contract check expects."""


class CandidateEscape(Exception):
    """The candidate's code ended its process, raised SystemExit/KeyboardInterrupt, or sent an
    answer that is not one. ``message`` says which (``dojo.text.messages``)."""

    def __init__(self, what, line: int | None = None, source: str | None = None):
        self.message = what if isinstance(what, dict) else message("text", text=str(what))
        super().__init__(message_text(self.message))
        self.line, self.source = line, source


class InputModified(Exception):
    """The candidate's code wrote into inputs: ``after`` holds them as it left them, ``value``
    is what it returned."""

    def __init__(self, after: dict, value=None):
        super().__init__(f"modified {', '.join(after)} in place")
        self.after, self.value = after, value


class EarlierResultChanged(Exception):
    """A call wrote into an array an earlier call had returned (``dojo.worker.returned``)."""


class TooSlow(KataTimeout):
    """The kata's calls together took more CPU time than the judge allows (``message``: the
    figures, as data)."""

    def __init__(self, what: dict):
        self.message = what
        super().__init__(message_text(what))


def _rebuild(info: dict, function: str) -> Exception:
    if info.get("exception", True) and not info.get("module", "").startswith(("_pytest", "pytest", "hypothesis")):
        return (CandidateValueError if info.get("value_error") else CandidateError)(info)
    kind = info.get("type", "BaseException")
    if kind == "SystemExit":
        what = message("candidate.exit", function=function, code=repr(info.get("code")))
    else:
        said = info.get("message") or ""
        what = message("candidate.stopped-judge", function=function, type=kind,
                       colon=message("punct.colon") if said else "", text=said)
    return CandidateEscape(what, info.get("line"), info.get("source"))


#: Seconds a kata's calls may spend asleep in all (time.sleep, a lock, a blocking read), beside
#: the CPU budget: calls that each sleep under the per-call limits still end within a minute.
ASLEEP_BUDGET = 10.0


class RemoteFunction:
    """Call ``function`` of the kata file at ``path`` in a sandboxed worker."""

    def __init__(self, path: Path, function: str, limits: Limits | None = None,
                 cpu_budget: float | None = CPU_BUDGET, on_output=None):
        self.path, self.function = Path(path), function
        self.__name__ = function
        self.limits = limits or Limits()
        self.cpu_budget = cpu_budget
        #: This process's part of the kata's properties (the dojo tool splits a kata across
        #: processes): its part of the budget is ``cpu_budget * share``.
        self.share = 1.0
        self.worker = Worker(self.path, function, self.limits, on_output=on_output)
        self.cpu_used = 0.0
        #: seconds the worker was seen asleep in calls: a kata's calls may sleep ASLEEP_BUDGET
        #: seconds in all (each call's own limit is Limits.asleep); a busy machine keeps a
        #: process runnable, never asleep, so this counts no time the machine took
        self.asleep_used = 0.0
        self.calls = 0
        self._broken: dict | None = None  # the first malformed answer's message (``_refuse_if_broken``)
        #: Set by the judge: () -> fraction of this process's properties run so far, for the
        #: estimate in a "too slow" verdict.
        self.progress = None
        #: Whether the next call starts an example: results of the calls before it are not
        #: checked for later writes (``dojo.worker.returned``), so a failure replays on its own.
        self.fresh = False

    def load(self) -> dict | None:
        """Start the worker; the problem (state, message, line) if the file cannot be loaded."""
        return self.worker.start()

    @property
    def sandbox(self) -> dict:
        return self.worker.sandbox

    def close(self) -> None:
        self.worker.close()

    def __call__(self, **kwargs):
        self._refuse_if_broken()
        fresh, self.fresh = self.fresh, False
        return self._result(self.worker.call(kwargs, fresh=fresh))

    def _refuse_if_broken(self) -> None:
        """Once a worker of this file has sent a malformed answer (the file tampered with the
        channel: never a bug of the answer's), every later call fails the same way at once,
        instead of a fresh worker each time repeating it at the judge's cost."""
        if self._broken is not None:
            raise CandidateEscape(self._broken)

    def peak_memory(self, cpu: float | None = None, **kwargs) -> tuple[object, int | None]:
        """(result, the memory a call needs: ``dojo.worker.memory``, in a fresh worker)."""
        self._refuse_if_broken()
        reply, peak = self.worker.peak_memory(kwargs, cpu)
        return self._result(reply), peak

    def peak_memory_of(self, first: dict, second: dict, cpu: float | None = None,
                       data_limit: int | None = None) -> tuple[list, float | None]:
        """([the two results], the memory the calls need): the first call on ``first``, the
        second on ``second``, measured together (``dojo.worker.memory.peak_of``). Where an
        allocation failed past ``data_limit``: no results, and ``memory.OVER``."""
        from dojo.worker import memory

        self._refuse_if_broken()
        replies, peak = memory.peak_of(self.worker, first, second, cpu, data_limit)
        if peak == memory.OVER:
            return [], peak
        return [self._result(reply) for reply in replies], peak

    def _result(self, reply):
        self.cpu_used += reply.cpu
        self.asleep_used += reply.asleep
        self.calls += 1
        how = reply.said or message("text", text=reply.how)
        if reply.status == "hung":
            raise KataTimeout(reply.how, said=how)
        if reply.status == "died":
            raise CandidateEscape(message("candidate.died", function=self.function, how_text=how))
        if reply.status == "broken":
            self._broken = message("candidate.broken", function=self.function, how_text=how)
            raise CandidateEscape(self._broken)
        self._check_budget()
        if reply.info.get("earlier_changed") is True:
            raise EarlierResultChanged()
        if reply.status == "raised":
            raise _rebuild(reply.info, self.function)
        if reply.mutated:
            raise InputModified(reply.mutated, reply.value)
        return reply.value

    def _check_budget(self) -> None:
        if self.cpu_budget is not None and self.asleep_used > ASLEEP_BUDGET * self.share:
            raise TooSlow(message("candidate.too-slow.asleep", function=self.function, calls=self.calls,
                                  asleep=f"{self.asleep_used:.0f}", budget=f"{ASLEEP_BUDGET * self.share:g}"))
        if self.cpu_budget is None or self.cpu_used <= self.cpu_budget * self.share:
            return
        each = self.cpu_used / max(1, self.calls)
        estimate = ""
        done = self.progress() if self.progress else None
        if done:
            total = self.calls / done / self.share
            estimate = message("candidate.too-slow.estimate", calls=f"{total:.0f}", seconds=f"{total * each:.0f}")
        raise TooSlow(message("candidate.too-slow", function=self.function, each=f"{each:.2g}",
                              calls=self.calls, estimate=estimate, budget=f"{self.cpu_budget:g}"))
