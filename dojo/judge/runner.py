"""Run the judge (pytest on one kata's tests) against one implementation and read its verdict.

Three ways, same verdict:
- the warm judge (``dojo/judge/judge_server.py``): a long-lived process of this checkout that has
  imported pytest, Hypothesis, NumPy and torch forks one pytest child per shard. Every route
  (``dojo test``, ``dojo check``, watch, interview, compare, the notebook) asks it first.
- where there is none (no fork, no private socket folder, ``DOJO_WARM=0``): ``judge()`` starts
  fresh ``python -m pytest`` processes, and ``WarmJudge`` forks from the tool's own process.
Either way the whole run is bounded by a timeout and killed when it overruns, and the
candidate's code runs only in the sandboxed worker.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from dojo.catalogue import registry
from dojo.text import screen
from dojo.catalogue.env import Env
from dojo.text.messages import message
from dojo.judge.verdict import STATUS_STATES, Verdict, overran, normalise, properties_of, title_message

__all__ = ["Verdict", "WarmJudge", "judge", "read_verdict"]

#: The tool's backstop for a verdict, behind the judge's own deadline of a kata (tests/watchdog.py,
#: 140 s in the practice profile), which fires first. Wall time, so far beyond a verdict (4-7 s on
#: a busy laptop, up to 60 s under CI's parallel suites): a busy machine never ends a right answer.
RUN_TIMEOUT = 200.0


def new_seed() -> int:
    """One run's seed, shared by its shards; ``$DOJO_SEED`` in [0, 2**32) fixes it (else ignored)."""
    import random

    fixed = os.environ.get("DOJO_SEED", "").strip()
    if fixed.isascii() and fixed.isdigit() and int(fixed) < 2**32:
        return int(fixed)
    return random.SystemRandom().randrange(2**32)


def pytest_args(env: Env, kata: registry.Kata, impl_dir: Path, report: Path, shard: str | None = None,
                seed: int | None = None) -> list[str]:
    args = [
        str(env.test_file(kata)),
        # NAME=VALUE, one token each: pytest reads its arguments before it knows these
        # options, and would take a separate VALUE for a test path (and load conftests by it).
        f"--impl={impl_dir}",
        f"--dojo-json={report}",
        "-q", "--no-header", "-p", "no:cacheprovider", "-p", "no:warnings", "-p", "no:xdist",
        f"--rootdir={env.root}",
    ]
    if seed is not None:
        args.append(f"--hypothesis-seed={seed}")
    return args + ([f"--dojo-shard={shard}"] if shard else [])


def child_environ(env: Env | None = None, run_seed: int | None = None) -> dict:
    """The judge's environment; with ``env``, the width its verdict will be shown at
    (``$DOJO_COLUMNS``: the judge formats arrays to fit it); with ``run_seed``, the seed every
    shard draws from (tests/seeding.py)."""
    environ = dict(os.environ)
    if run_seed is not None:
        environ["DOJO_RUN_SEED"] = str(run_seed)
    environ.pop("PYTHONDONTWRITEBYTECODE", None)  # let pytest cache its rewritten modules
    environ["DOJO_DIE_WITH"] = str(os.getpid())  # the judge ends when this tool does, even on kill -9
    return screen.judge_environ(env, environ) if env is not None else environ


def read_records(reports: list[Path], expected: dict | None = None) -> list[dict] | None:
    """The records of every shard's report, in the judge's order; None if one is missing.
    ``expected`` (filled in): how many properties each kata's shards said they would run."""
    records = []
    for report in reports:
        try:
            data = json.loads(report.read_text(encoding="utf-8"))
            records += data["records"]
            for kata, n in (data.get("expected") or {}).items():
                if expected is not None:
                    expected[kata] = expected.get(kata, 0) + int(n)
            if expected is not None and isinstance(data.get("sandbox"), dict):
                expected["\x00sandbox"] = data["sandbox"]
            if expected is not None and isinstance(data.get("seed"), int) and not isinstance(data["seed"], bool):
                expected["\x00seed"] = data["seed"]
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return None
    records = [normalise(r) for r in records]
    records.sort(key=lambda r: r.get("index", 0))
    seen, unique = set(), []
    for r in records:  # a kata that cannot be judged is reported by every shard: keep it once
        key = (r.get("kata"), r.get("property"))
        if key not in seen:
            seen.add(key)
            unique.append(r)
    return unique


def read_verdict(kata: registry.Kata, report: Path | list[Path], seconds: float, output: str = "") -> Verdict:
    expected: dict = {}
    records = read_records(report if isinstance(report, list) else [report], expected)
    sandbox = expected.pop("\x00sandbox", None)
    seed = expected.pop("\x00seed", None)
    verdict = _verdict(kata, records, expected, seconds, output)
    verdict.sandbox, verdict.seed = sandbox, seed
    return verdict


def _tail(output: str, lines: int) -> str:
    return "\n".join(output.strip().splitlines()[-lines:])


def _verdict(kata: registry.Kata, records, expected: dict, seconds: float, output: str) -> Verdict:
    if records is None:
        tail = _tail(output, 25)
        return Verdict(kata.module, "error", seconds=seconds, output=tail,
                       problem=None if tail else message("verdict.no-report"))
    records = [r for r in records if r["kata"] == kata.module]
    status = [r for r in records if r["state"] in STATUS_STATES and r.get("file_level")]
    if status:
        return Verdict(kata.module, status[0]["state"], records=records, seconds=seconds)
    stopped = [r for r in records if r.get("deadline")]
    if stopped:  # the watchdog ended the run: its record names the property that was running
        total = max(expected.get(kata.module, 0), len(properties_of(kata.test_path)), len(records))
        return Verdict(kata.module, "timed-out", sum(r["status"] == "pass" for r in records),
                       total, records, seconds)
    owed = expected.get(kata.module, 0)
    if owed and len(records) < owed:  # a run that ended early is never a pass
        last = (title_message(kata.module, records[-1]["id"], records[-1]["title"]) if records
                else message("verdict.first-property"))
        return Verdict(kata.module, "incomplete", sum(r["status"] == "pass" for r in records), owed,
                       records, seconds, output=_tail(output, 8),
                       problem=message("verdict.incomplete", ran=len(records), owed=owed, last=last))
    passed = sum(r["status"] == "pass" for r in records)
    total = len(records)
    if total == 0:
        tail = _tail(output, 25)
        return Verdict(kata.module, "error", seconds=seconds, output=tail,
                       problem=None if tail else message("verdict.nothing-ran"))
    hung = any(r["state"] == "timed-out" for r in records)
    state = "passed" if passed == total else ("timed-out" if hung else "failing")
    return Verdict(kata.module, state, passed, total, records, seconds)


def judge(env: Env, kata: registry.Kata, impl_dir: Path, timeout: float = RUN_TIMEOUT,
          seed: int | None = None) -> Verdict:
    """Judge ``impl_dir/<kata>.py``: the untouched stub at once (``dojo.judge.untouched``), else by
    the warm judge, else in fresh pytest processes, one per shard. ``seed``: replay that run."""
    from dojo.judge.untouched import stub_verdict

    verdict = stub_verdict(env, kata, impl_dir) or warm_judge(env, kata, impl_dir, timeout, seed=seed)
    return verdict or cold_judge(env, kata, impl_dir, timeout, seed)


def warm_judge(env: Env, kata: registry.Kata, impl_dir: Path, timeout: float = RUN_TIMEOUT, stale=None,
               seed: int | None = None):
    """The verdict of the warm judge (dojo/judge/judge_server.py); None where there is none;
    ``warm.STALE`` if ``stale()`` became true meanwhile (the run was stopped)."""
    from dojo.judge import warm

    with tempfile.TemporaryDirectory(prefix="dojo-") as tmp:
        n = shard_count()
        reports = [Path(tmp) / f"verdict{i}.json" for i in range(n)]
        log = Path(tmp) / "output.txt"
        shards = [pytest_args(env, kata, impl_dir, reports[i], f"{i}/{n}" if n > 1 else None, seed)
                  for i in range(n)]
        start = time.monotonic()
        outcome = warm.run(shards, child_environ(env, new_seed()), env.root, log, start + timeout, stale)
        if outcome is None or outcome == warm.STALE:
            return outcome
        if outcome == "timeout":
            return overran(kata.module, timeout)
        output = log.read_text(errors="replace") if log.exists() else ""
        return read_verdict(kata, reports, time.monotonic() - start, output)


def cold_judge(env: Env, kata: registry.Kata, impl_dir: Path, timeout: float = RUN_TIMEOUT,
               seed: int | None = None) -> Verdict:
    """Judge ``impl_dir/<kata>.py`` in fresh pytest processes, one per shard."""
    _share_a_zygote()
    with tempfile.TemporaryDirectory(prefix="dojo-") as tmp:
        n = shard_count()
        reports = [Path(tmp) / f"verdict{i}.json" for i in range(n)]
        log = Path(tmp) / "output.txt"
        start = time.monotonic()
        run_seed = new_seed()
        procs: list[subprocess.Popen] = []
        try:
            with open(log, "ab") as out:
                for i in range(n):
                    shard = f"{i}/{n}" if n > 1 else None
                    procs.append(subprocess.Popen(
                        [sys.executable, "-m", "pytest", *pytest_args(env, kata, impl_dir, reports[i], shard, seed)],
                        cwd=env.root, env=child_environ(env, run_seed), stdin=subprocess.DEVNULL, stdout=out,
                        stderr=out, start_new_session=True,  # its own process group, killed as one
                    ))
            deadline = start + timeout
            while any(p.poll() is None for p in procs):
                if time.monotonic() > deadline:
                    return overran(kata.module, timeout)
                time.sleep(0.01)
        finally:  # also on Ctrl-C: no judge outlives the run, nor anything it started
            for p in procs:
                try:
                    if hasattr(os, "killpg"):
                        os.killpg(p.pid, signal.SIGKILL)
                    else:
                        p.kill()
                except OSError:
                    pass
                p.wait()
        output = log.read_text(errors="replace") if log.exists() else ""
        return read_verdict(kata, reports, time.monotonic() - start, output)


def _share_a_zygote() -> None:
    """One process for the candidates' code (dojo/worker/zygote.py), started now and shared by every
    judge this tool starts (they find it in the environment): it imports NumPy while they start,
    and ends with this tool."""
    from dojo.worker.workers import Zygote

    if Zygote._mine is None:
        Zygote._mine = Zygote.start(export=True)


def shard_count() -> int:
    """How many forked judges share one kata's properties: one per core, two at most."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return max(1, min(2, cores))


class WarmJudge:
    """A judge that is warm before the first run (watch, interview: the clock starts after it).

    Where the warm judge (dojo/judge/judge_server.py) can run, this waits until it is ready and asks
    it. Elsewhere (POSIX without it) this process imports pytest, Hypothesis, NumPy, torch and
    the judge's modules once, and each run forks children that split a kata's properties.
    Children start in their own process group with default signal handlers, and a run that
    overruns its deadline, or whose file changed under it (``stale``), is ended by killing
    those groups.
    """

    def __init__(self, env: Env, shards: int | None = None):
        from dojo.judge import warm

        self.env = env
        self.shards = shards or shard_count()
        self.prepared: set[str] = set()
        try:
            server = warm.connect(env.root)
        except OSError:
            server = None
        self.forking = server is None and hasattr(os, "fork")
        if server is not None:
            server.close()
        if self.forking:
            from dojo.worker.workers import Zygote

            # One process for the candidates' code, for every forked judge (they find it in the
            # environment); it ends with this one.
            _share_a_zygote()
            Zygote._mine.wait_ready()
            import hypothesis  # noqa: F401  (the expensive imports, paid once)
            import hypothesis.extra.numpy  # noqa: F401
            import numpy  # noqa: F401
            import pytest  # noqa: F401

    def prepare(self, kata: registry.Kata) -> None:
        """Import the judge's shared modules and torch in this process, so every forked run
        starts with them loaded."""
        if kata.module in self.prepared or not self.forking:
            return
        self.prepared.add(kata.module)
        import importlib

        try:
            if str(self.env.root) not in sys.path:
                sys.path.insert(0, str(self.env.root))
            # not the kata's test module: its @given keeps the settings in force when imported
            parts = importlib.import_module("tests.plugin").PARTS  # what conftest.py registers
            for name in ("conftest", *parts, "tests.judge", "tests.strategies", "dojo.judge.diagnosis"):
                importlib.import_module(name)
            importlib.import_module("tests.oracle").torch()
        except Exception:  # the child will import it again and report whatever is wrong
            pass

    def judge(self, kata: registry.Kata, impl_dir: Path, timeout: float = RUN_TIMEOUT,
              stale=None) -> Verdict | None:
        """The verdict on ``impl_dir/<kata>.py``; None if ``stale()`` became true meanwhile (the
        run was stopped: judge the new content instead)."""
        from dojo.judge import warm

        verdict = warm_judge(self.env, kata, impl_dir, timeout, stale)
        if verdict == warm.STALE:
            return None
        if verdict is not None:
            return verdict
        if not self.forking:
            return cold_judge(self.env, kata, impl_dir, timeout)
        self.prepare(kata)
        with tempfile.TemporaryDirectory(prefix="dojo-") as tmp:
            n = self.shards
            reports = [Path(tmp) / f"verdict{i}.json" for i in range(n)]
            log = Path(tmp) / "output.txt"
            start = time.monotonic()
            pids: list[int] = []
            try:
                for i in range(n):
                    pids.append(self._fork(kata, impl_dir, reports[i], log, f"{i}/{n}" if n > 1 else None))
                outcome = self._wait(pids, start + timeout, stale)
            finally:  # also on Ctrl-C: no judge outlives the run, nor anything it started
                self._kill(pids)
            if outcome == "stale":
                return None
            if outcome == "timeout":
                return overran(kata.module, timeout)
            output = log.read_text(errors="replace") if log.exists() else ""
            return read_verdict(kata, reports, time.monotonic() - start, output)

    @staticmethod
    def _wait(pids, deadline: float, stale) -> str:
        """"done" when every child exited, "timeout" past the deadline, "stale" when stale()."""
        running = set(pids)
        last_check = time.monotonic()
        while running:
            for pid in list(running):
                done, _ = os.waitpid(pid, os.WNOHANG)
                if done:
                    running.discard(pid)
            if not running:
                break
            now = time.monotonic()
            if now > deadline:
                return "timeout"
            if stale is not None and now - last_check > 0.05:
                last_check = now
                if stale():
                    return "stale"
            time.sleep(0.005)
        return "done"

    def _fork(self, kata, impl_dir, report, log, shard) -> int:
        shown_at = screen.judge_environ(self.env, {}).get("DOJO_COLUMNS")  # before the child's output moves
        pid = os.fork()
        if pid:
            try:
                os.setpgid(pid, pid)  # also done by the child: whichever runs first
            except OSError:
                pass
            return pid
        code = 3
        try:  # the child: its own process group, default signals, then a pytest run
            os.setpgid(0, 0)
            from dojo.worker import sandbox

            sandbox.die_with_parent()
            for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT, signal.SIGWINCH,
                        signal.SIGCHLD, signal.SIGALRM, signal.SIGPIPE):
                signal.signal(sig, signal.SIG_DFL)
            signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the tool's to handle
            fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
            os.dup2(fd, 1)
            os.dup2(fd, 2)
            devnull = os.open(os.devnull, os.O_RDONLY)
            os.dup2(devnull, 0)
            os.chdir(self.env.root)
            os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
            if shown_at:
                os.environ["DOJO_COLUMNS"] = shown_at
            else:
                os.environ.pop("DOJO_COLUMNS", None)
            sys.dont_write_bytecode = False
            import pytest

            code = int(pytest.main(pytest_args(self.env, kata, impl_dir, report, shard)))
        finally:
            os._exit(code)

    @staticmethod
    def _kill(pids) -> None:
        for pid in pids:
            try:
                os.killpg(pid, signal.SIGKILL)
            except OSError:
                pass
            try:
                os.waitpid(pid, 0)
            except (ChildProcessError, InterruptedError):
                pass
