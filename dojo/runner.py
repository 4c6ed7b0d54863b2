"""Run the judge (pytest on one kata's tests) against one implementation and read its verdict.

Two ways, same verdict:
- ``judge()`` starts a fresh ``python -m pytest`` process: nothing of the candidate's code can
  crash or hang the tool.
- ``WarmJudge`` (watch and interview modes) imports pytest, Hypothesis and NumPy once, then
  forks a child for every run, so a save is judged without paying for those imports again.
Either way the whole run is bounded by a timeout and killed when it overruns.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from dojo import registry
from dojo.env import Env

#: Whole-run bound for one kata's judge, on top of the per-call limit inside the tests.
RUN_TIMEOUT = 300.0
STATUS_STATES = ("not-started", "cannot-import", "numpy-only", "timed-out")


@dataclass
class Verdict:
    kata: str
    state: str  # passed | failing | not-started | cannot-import | numpy-only | timed-out | error
    passed: int = 0
    total: int = 0
    records: list[dict] = field(default_factory=list)
    seconds: float = 0.0
    detail: str = ""

    @property
    def ok(self) -> bool:
        return self.state == "passed"

    @property
    def failures(self) -> list[dict]:
        return [r for r in self.records if r["state"] not in ("passed", "skipped")]

    @property
    def diagnosis(self) -> str | None:
        """The known bug the answer behaves like (see dojo/diagnosis.py), if the judge named one."""
        return next((r["diagnosis"] for r in self.failures if r.get("diagnosis")), None)

    def summary(self) -> dict:
        first = self.failures[0]["title"] if self.failures else None
        return {
            "state": self.state,
            "passed": self.passed,
            "total": self.total,
            "first_failure": first,
            "diagnosis": self.diagnosis,
        }


def pytest_args(env: Env, kata: registry.Kata, impl_dir: Path, report: Path) -> list[str]:
    return [
        str(env.test_file(kata)),
        # NAME=VALUE, one token each: pytest reads its arguments before it knows these
        # options, and would take a separate VALUE for a test path (and load conftests by it).
        f"--impl={impl_dir}",
        f"--dojo-json={report}",
        "-q", "--no-header", "-p", "no:cacheprovider", "-p", "no:warnings",
        f"--rootdir={env.root}",
    ]


def child_environ() -> dict:
    environ = dict(os.environ)
    environ.pop("PYTHONDONTWRITEBYTECODE", None)  # let pytest cache its rewritten modules
    return environ


def read_verdict(kata: registry.Kata, report: Path, seconds: float, output: str = "") -> Verdict:
    try:
        records = json.loads(report.read_text(encoding="utf-8"))["records"]
    except (OSError, ValueError, KeyError):
        tail = "\n".join(output.strip().splitlines()[-25:])
        return Verdict(kata.module, "error", seconds=seconds, detail=tail or "the judge produced no report")
    records = [r for r in records if r["kata"] == kata.module]
    status = [r for r in records if r["state"] in STATUS_STATES and r["property"].startswith(kata.module + ":")]
    if status:
        return Verdict(kata.module, status[0]["state"], records=records, seconds=seconds)
    passed = sum(r["state"] == "passed" for r in records)
    total = len(records)
    if total == 0:
        tail = "\n".join(output.strip().splitlines()[-25:])
        return Verdict(kata.module, "error", seconds=seconds, detail=tail or "no properties ran")
    hung = any(r["state"] == "timed-out" for r in records)
    state = "passed" if passed == total else ("timed-out" if hung else "failing")
    return Verdict(kata.module, state, passed, total, records, seconds)


def judge(env: Env, kata: registry.Kata, impl_dir: Path, timeout: float = RUN_TIMEOUT) -> Verdict:
    """Judge ``impl_dir/<kata>.py`` in a fresh pytest process."""
    with tempfile.TemporaryDirectory(prefix="dojo-") as tmp:
        report = Path(tmp) / "verdict.json"
        cmd = [sys.executable, "-m", "pytest", *pytest_args(env, kata, impl_dir, report)]
        start = time.monotonic()
        try:
            proc = subprocess.run(
                cmd, cwd=env.root, env=child_environ(), capture_output=True, text=True,
                timeout=timeout, stdin=subprocess.DEVNULL,
            )
            output = proc.stdout + proc.stderr
        except subprocess.TimeoutExpired:
            return Verdict(kata.module, "timed-out", seconds=timeout,
                           detail=f"the judge did not finish within {timeout:g} s")
        return read_verdict(kata, report, time.monotonic() - start, output)


class WarmJudge:
    """Imports the judge's libraries once; each run is a forked child (POSIX only)."""

    def __init__(self, env: Env):
        self.env = env
        self.forking = hasattr(os, "fork")
        if self.forking:
            import hypothesis  # noqa: F401  (the expensive imports, paid once)
            import hypothesis.extra.numpy  # noqa: F401
            import numpy  # noqa: F401
            import pytest  # noqa: F401

    def judge(self, kata: registry.Kata, impl_dir: Path, timeout: float = RUN_TIMEOUT) -> Verdict:
        if not self.forking:
            return judge(self.env, kata, impl_dir, timeout)
        with tempfile.TemporaryDirectory(prefix="dojo-") as tmp:
            report = Path(tmp) / "verdict.json"
            log = Path(tmp) / "output.txt"
            start = time.monotonic()
            pid = os.fork()
            if pid == 0:  # child: become a pytest run
                code = 3
                try:
                    fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
                    os.dup2(fd, 1)
                    os.dup2(fd, 2)
                    devnull = os.open(os.devnull, os.O_RDONLY)
                    os.dup2(devnull, 0)
                    os.chdir(self.env.root)
                    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
                    sys.dont_write_bytecode = False
                    import pytest

                    code = int(pytest.main(pytest_args(self.env, kata, impl_dir, report)))
                finally:
                    os._exit(code)
            deadline = start + timeout
            while True:
                done, _ = os.waitpid(pid, os.WNOHANG)
                if done:
                    break
                if time.monotonic() > deadline:
                    os.kill(pid, signal.SIGKILL)
                    os.waitpid(pid, 0)
                    return Verdict(kata.module, "timed-out", seconds=timeout,
                                   detail=f"the judge did not finish within {timeout:g} s")
                time.sleep(0.01)
            output = log.read_text(errors="replace") if log.exists() else ""
            return read_verdict(kata, report, time.monotonic() - start, output)
