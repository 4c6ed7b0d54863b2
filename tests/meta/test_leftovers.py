"""``kill -9`` of the judge at any moment leaves no process behind.

``dojo test <kata>`` and plain ``pytest tests/test_<kata>.py --impl D`` are each started 20 times
on a correct answer that is slow enough to be mid-run for the first few seconds, and SIGKILLed
(the parent only, never its group) after a random delay: seeded, so a failure can be replayed.
What they started (forked judges, the watchdog, the zygote, its workers, what a worker left)
must end by itself: judges and workers die with their parent (PR_SET_PDEATHSIG), the zygote
when its lifeline pipe closes, the watchdog when its pipe closes.

Each run has a folder of its own under tmp_path, and its TMPDIR there: every process a run
starts names it in its command line (the kata folder, the zygote's socket path, which forked
workers keep) or its environment (TMPDIR, which a program a worker started inherits).

``dojo test`` judges in the warm judge (one for the test, in a runtime folder of its own): the
server is meant to outlive a killed client, so it alone is not a leftover; the pytest child it
forked for the killed verdict is (it has the server's command line, and the server as parent).
The server's own zygote (kept for every verdict) is not one either. The test ends the server
itself, and then nothing may remain.
"""

import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from tests.seeding import without_ci
from tests.tool.harness import REPO, Sandbox

pytestmark = pytest.mark.contributors  # about a minute: the contributors' suite

RUNS = 10  # kills at ten delays drawn over the run (twenty took 84 s of CI)
SEED = 20_240_501
DELAY = (0.2, 3.0)  # seconds after the start, uniformly
#: How long what a killed run started may take to end by itself.
WITHIN = 15.0

#: Correct, and 20 ms of CPU a call: a run lasts about 5 s (dojo test) to 7 s (pytest), so a
#: kill at up to 3 s lands mid-run (collection, the zygote starting, calls, shrinking, reports).
SLOWISH = '''
import time

import numpy as np


def softmax(x, axis=-1):
    start = time.process_time()
    x = np.asarray(x, dtype=np.float64)
    if x.ndim == 0 or not -x.ndim <= axis < x.ndim or x.shape[axis] == 0:
        raise ValueError("x must have the axis, with at least one entry along it")
    if np.isnan(x).any() or np.isposinf(x).any():
        raise ValueError("NaN or +inf")
    peak = x.max(axis=axis, keepdims=True)
    if np.isneginf(peak).any():
        raise ValueError("a slice is entirely -inf")
    e = np.exp(x - peak)
    while time.process_time() - start < 0.02:
        pass
    return e / e.sum(axis=axis, keepdims=True)
'''


def processes_mentioning(text: str) -> list[int]:
    """Processes (not this one) whose command line or environment mentions ``text``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        for part in ("cmdline", "environ"):
            try:
                data = Path(f"/proc/{entry}/{part}").read_bytes()
            except OSError:  # gone, or not ours to read
                continue
            if text.encode() in data:
                found.append(int(entry))
                break
    return found


def _cmdline(pid) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def _parent(pid: int) -> int | None:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return None


def warm_server(pid: int) -> bool:
    """``pid`` is a warm judge itself (not a child it forked, which keeps its command line)."""
    return b"dojo.judge.judge_server" in _cmdline(pid) and b"dojo.judge.judge_server" not in _cmdline(_parent(pid))


def warm_judge_itself(pid: int) -> bool:
    """``pid`` is a warm judge or the zygote it keeps for all its verdicts (not a worker that
    zygote forked for one verdict, nor a pytest child of the server)."""
    if warm_server(pid):
        return True
    parent = _parent(pid)
    return parent is not None and warm_server(parent) and b"zygote.run" in _cmdline(pid)


def left_after(text: str, within: float = WITHIN) -> list[int]:
    end = time.monotonic() + within
    while ((found := [p for p in processes_mentioning(text) if not warm_judge_itself(p)])
           and time.monotonic() < end):
        time.sleep(0.05)
    return found


def describe(pids: list[int]) -> str:
    lines = []
    for pid in pids:
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            parent = fields[1]
            parent_cmd = Path(f"/proc/{parent}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            cmd, parent, parent_cmd = "(gone)", "?", ""
        lines.append(f"  pid {pid}, parent {parent} ({parent_cmd[:120]}): {cmd[:300]}")
    return "\n".join(lines)


def end(pids: list[int]) -> None:
    """Take out what a failed check found (this test started them), so they do not outlive it."""
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def run_and_kill(command: list[str], cwd: Path, env: dict, folder: Path, delay: float) -> tuple[bool, list[int]]:
    """Start ``command``, SIGKILL it (the parent alone) after ``delay`` seconds: (whether it was
    still running then, the processes of ``folder`` left ``WITHIN`` seconds later)."""
    with open(folder / "output.txt", "w") as output:
        proc = subprocess.Popen(command, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=output,
                                stderr=subprocess.STDOUT, start_new_session=True)
    try:
        time.sleep(delay)
        running = proc.poll() is None
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait()
    return running, left_after(str(folder))


def environ(base: dict, folder: Path, runtime: Path | None = None) -> dict:
    tmp = folder / "tmp"
    tmp.mkdir(parents=True)
    env = dict(without_ci(base), TMPDIR=str(tmp))
    if runtime is not None:
        env["XDG_RUNTIME_DIR"] = str(runtime)
    env.pop("DOJO_KATA_DEADLINE", None)
    return env


def end_warm_judges(tmp_path: Path) -> None:
    """SIGTERM the warm judges that mention this test (they clean up), and wait for them."""
    servers = [p for p in processes_mentioning(str(tmp_path)) if warm_server(p)]
    for pid in servers:
        try:
            os.kill(pid, signal.SIGTERM)
        except OSError:
            pass
    left_after(str(tmp_path))
    deadline = time.monotonic() + WITHIN
    while any(Path(f"/proc/{p}").exists() for p in servers) and time.monotonic() < deadline:
        time.sleep(0.05)


def check(route: str, runs: list[tuple[float, bool, list[int]]], tmp_path: Path) -> None:
    failures = [(i, delay, left) for i, (delay, _, left) in enumerate(runs) if left]
    for _, _, left in failures:
        end(left)
    assert not failures, f"{route}: processes left after kill -9:\n" + "\n".join(
        f"run {i} (killed {delay:.2f} s after the start):\n{describe(left)}" for i, delay, left in failures)
    mid_run = sum(running for _, running, _ in runs)
    assert mid_run >= RUNS * 3 // 4, f"{route}: only {mid_run} of {RUNS} runs were still going when killed"
    assert not processes_mentioning(str(tmp_path))


def test_kill_9_of_dojo_test_leaves_no_process(tmp_path):
    rng = random.Random(SEED)
    runtime = Path(tempfile.mkdtemp(prefix="dj-", dir="/tmp"))  # short: a socket's path
    runs = []
    try:
        for i in range(RUNS):
            delay = rng.uniform(*DELAY)
            folder = tmp_path / f"run-{i}"
            folder.mkdir()
            sandbox = Sandbox(folder)
            sandbox.write_kata("softmax", SLOWISH)
            env = environ(sandbox.environ(), folder, runtime)
            running, left = run_and_kill(sandbox.command("test", "softmax"), sandbox.root, env, folder, delay)
            runs.append((delay, running, left))
        assert list(runtime.glob("*/*.sock")), "no run was judged by a warm judge"
    finally:
        end_warm_judges(tmp_path)
        shutil.rmtree(runtime, ignore_errors=True)
    check("dojo test", runs, tmp_path)


def test_kill_9_of_plain_pytest_leaves_no_process(tmp_path):
    rng = random.Random(SEED + 1)
    runs = []
    for i in range(RUNS):
        delay = rng.uniform(*DELAY)
        folder = tmp_path / f"run-{i}"
        impl = folder / "impl"
        impl.mkdir(parents=True)
        (impl / "softmax.py").write_text(SLOWISH)
        env = environ(dict(os.environ, DOJO_STATE_DIR=str(folder / "state")), folder)
        command = [sys.executable, "-m", "pytest", "tests/test_softmax.py", f"--impl={impl}", "-q",
                   "-p", "no:cacheprovider", "-p", "no:xdist"]
        running, left = run_and_kill(command, REPO, env, folder, delay)
        runs.append((delay, running, left))
    check("pytest", runs, tmp_path)
