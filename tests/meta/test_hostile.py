"""Code that tries to end, hang, flood or fool the judge gets a verdict that names what it did.

Each file in tests/meta/hostile/ is a kata answer with constants:

- ``KATA``: the kata it answers; ``EXPECT``: words its verdict must contain (a dict
  ``{"pytest": …, "dojo test": …}`` where the two routes word it differently: ``dojo test``
  shows first the failure that tells most, a named bug before a comparison);
- ``PASSES = True``: a correct answer that must pass in spite of what it does;
- ``NEEDS_SANDBOX = True``: contained only by the worker's sandbox (Landlock, seccomp): where
  Landlock is unavailable the attack would succeed, so the file is skipped there, with a reason;
- ``WITHOUT_SANDBOX``: where Landlock is unavailable the verdict differs (the file may then
  import pytest, fork, …): the words it must contain there instead, or ``"passes"``;
- ``ROUTE``: the one route it goes through (``"dojo test"``), where both would judge it the
  same way. Both routes run the same plugin and call the same worker (``dojo test`` from a
  child of the warm judge, plain pytest from a fresh interpreter), so an attack on the worker
  is contained by the same code whichever route calls it: the memory-bound files
  (``dojo/worker/memory.py``) and the worker's other attacks. Plain pytest stays for attacks on
  the pytest process and its output, on the zygote and the judge's process, leftovers,
  verdicts worded per route, and one file of most kinds of verdict (docs/hostile.md lists
  them); its run costs 10–30 s a file here, ``dojo test``'s 4–15 s;
- ``KNOWN_HOLE``: the judge does not contain it yet (the reason): expected to fail, strictly, so
  a fix shows up as a pass to take the constant out; a dict ``{"pytest": …, "dojo test": …}``
  names the routes it concerns.

Each goes through plain ``pytest`` and through ``dojo test``, each run with its own ``TMPDIR``
(so the zygote's socket folder, in every worker's command line, and the workers' own folders,
in their environment, are under the test's tmp_path): never a pass (unless it passes), never a
hang (the CPU limits stop every loop within seconds), no process left behind, nothing written
into the checkout, and a message that names the cause. docs/hostile.md says how each is
contained.
"""

import ast
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from tests.seeding import without_ci
from tests.tool.harness import REPO, Sandbox

pytestmark = pytest.mark.contributors  # the contributors' suite

HOSTILE = sorted((Path(__file__).parent / "hostile").glob("*.py"))
#: What a hostile file must not change in the checkout (files: size and modification time).
GUARDED = ("tests/answers", "solutions")
#: A run's limit: the slowest file (correct but too slow) needs 20 s of CPU before its verdict.
RUN_TIMEOUT = 240


def landlock_abi() -> int:
    from dojo.worker import sandbox

    return sandbox.landlock_abi()


SANDBOXED = landlock_abi() > 0


def constants(path: Path) -> dict:
    source = path.read_text()
    try:
        tree = ast.parse(source)
    except (MemoryError, RecursionError):  # a file Python cannot parse: its constants come first
        tree = ast.parse(source[:source.index("\nimport ")])
    return {
        target.id: ast.literal_eval(node.value)
        for node in tree.body if isinstance(node, ast.Assign)
        for target in node.targets if isinstance(target, ast.Name) and target.id.isupper()
    }


def expected(c: dict, route: str) -> tuple[bool, str | None]:
    """(passes, words its verdict must contain) on this machine, through ``route``."""
    if not SANDBOXED and "WITHOUT_SANDBOX" in c:
        there = c["WITHOUT_SANDBOX"]
        return (True, None) if there == "passes" else (False, there)
    words = c.get("EXPECT")
    return bool(c.get("PASSES")), words[route] if isinstance(words, dict) else words


def _cases(route: str) -> list:
    cases = []
    for path in HOSTILE:
        c = constants(path)
        if c.get("ROUTE", route) != route:
            continue
        marks = []
        if c.get("NEEDS_SANDBOX") and not SANDBOXED:
            marks.append(pytest.mark.skip(
                reason=f"contained by the worker's sandbox, and Landlock is unavailable here "
                       f"(dojo.worker.sandbox.landlock_abi() == 0): {path.name}'s attack would succeed"))
        hole = c.get("KNOWN_HOLE")
        hole = hole.get(route) if isinstance(hole, dict) else hole
        if hole:
            marks.append(pytest.mark.xfail(strict=True, reason=hole))
        cases.append(pytest.param(path, marks=marks, id=path.stem))
    return cases


def processes_mentioning(text: str) -> list[int]:
    """Processes (not this one) whose command line or environment mentions ``text``: forked
    workers keep the zygote's command line (its socket path), and a program a worker started has
    the worker's environment (its TMPDIR)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) != os.getpid():
            for part in ("cmdline", "environ"):
                try:
                    data = Path(f"/proc/{entry}/{part}").read_bytes().decode(errors="replace")
                except OSError:  # gone, or not ours to read
                    continue
                if text in data:
                    found.append(int(entry))
                    break
    return found


def lingering(text: str, within: float = 15.0) -> list[int]:
    """Processes still mentioning ``text`` once they had ``within`` seconds to end (polled, so a
    quick exit costs nothing and a busy machine gets time)."""
    end = time.monotonic() + within
    while (found := processes_mentioning(text)) and time.monotonic() < end:
        time.sleep(0.05)
    return found


def describe(pids: list[int]) -> str:
    lines = []
    for pid in pids:
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            parent = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1]
        except OSError:
            cmd, parent = "(gone)", "?"
        lines.append(f"  pid {pid} (parent {parent}): {cmd[:300]}")
    return "processes were left behind:\n" + "\n".join(lines)


def snapshot() -> dict:
    found = {}
    for folder in GUARDED:
        for path in sorted((REPO / folder).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                st = path.stat()
                found[str(path.relative_to(REPO))] = (st.st_size, st.st_mtime_ns)
    return found


def own_environ(tmp_path: Path, env: dict) -> dict:
    """``env`` with a TMPDIR of this test's own, and no CI (the practice profile's examples)."""
    tmp = tmp_path / "tmpdir"
    tmp.mkdir(exist_ok=True)
    env = dict(without_ci(env), TMPDIR=str(tmp))
    env.pop("DOJO_KATA_DEADLINE", None)
    return env


def check_folders(tmp_path: Path) -> None:
    """No worker's temporary folder piles up in the run's TMPDIR: what a judge ended by a signal
    left is swept by the next one to start a worker (``worker_folders.sweep``, run here as it
    would be), locked or not. Those still left are removed here, so pytest can remove tmp_path."""
    from dojo.worker import worker_folders

    tempfile.tempdir = str(tmp_path / "tmpdir")
    try:
        worker_folders.sweep()
    finally:
        tempfile.tempdir = None
    left = sorted((tmp_path / "tmpdir").glob(worker_folders.PREFIX + "*"))
    for folder in left:
        worker_folders.remove(folder)
    owners = {}
    for folder in left:
        pid = folder.name[len(worker_folders.PREFIX):].split("-", 1)[0]
        try:
            owners[folder.name] = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")[:200].decode()
        except OSError:
            owners[folder.name] = "(gone)"
    assert not left, f"workers' temporary folders were left behind: {owners}"


def check_checkout(before: dict) -> None:
    after = snapshot()
    changed = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
    for name in changed:  # a probe a hostile file managed to write: take it out again
        if name not in before:
            (REPO / name).unlink(missing_ok=True)
    assert not changed, f"the run changed the checkout: {changed}"


@pytest.mark.parametrize("path", _cases("pytest"))
def test_plain_pytest_never_passes_hangs_or_leaves_processes(path, tmp_path):
    c = constants(path)
    passes, words = expected(c, "pytest")
    impl = tmp_path / "impl"
    impl.mkdir()
    (impl / f"{c['KATA']}.py").write_text(path.read_text())
    env = own_environ(tmp_path, dict(os.environ, DOJO_STATE_DIR=str(tmp_path / "state")))
    before = snapshot()
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", f"tests/test_{c['KATA']}.py", f"--impl={impl}", "-q",
         "-p", "no:cacheprovider", "-p", "no:xdist"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=RUN_TIMEOUT, stdin=subprocess.DEVNULL,
    )
    out = proc.stdout + proc.stderr
    if passes:
        assert proc.returncode == 0, out[-3000:]
    else:
        assert proc.returncode != 0, f"plain pytest exited 0 for {path.name}:\n{out[-3000:]}"
        assert words in out, f"{path.name}: {words!r} not in the output:\n{out[-3000:]}"
    assert "INTERNALERROR" not in out, out[-3000:]
    assert len(out) < 2_000_000, "the candidate's output was not capped"
    if c.get("PRINTS_ESCAPES"):
        assert "\x1b" not in out, "an escape character the candidate's code wrote reached the output"
    left = lingering(str(tmp_path))
    assert not left, describe(left)
    check_folders(tmp_path)
    check_checkout(before)


@pytest.mark.parametrize("path", _cases("dojo test"))
def test_dojo_test_never_passes_hangs_or_leaves_processes(path, tmp_path):
    c = constants(path)
    passes, words = expected(c, "dojo test")
    sandbox = Sandbox(tmp_path)
    sandbox.write_kata(c["KATA"], path)
    env = own_environ(tmp_path, sandbox.environ())
    before = snapshot()
    proc = subprocess.run(sandbox.command("test", c["KATA"]), cwd=sandbox.root, env=env,
                          capture_output=True, text=True, timeout=RUN_TIMEOUT, stdin=subprocess.DEVNULL)
    out = proc.stdout + proc.stderr
    try:
        if passes:
            assert proc.returncode == 0 and "properties pass" in out, out[-3000:]
        else:
            assert proc.returncode == 1, f"dojo test exited {proc.returncode} for {path.name}:\n{out[-3000:]}"
            assert "All " not in out or " properties pass." not in out.split("All ")[-1][:40], out[-3000:]
            assert words in out, f"{path.name}: {words!r} not in the verdict:\n{out[-3000:]}"
            assert "not your fault" not in out  # the candidate's doing, never the tool's
        if c.get("PRINTS_ESCAPES"):
            assert "\x1b" not in out, "an escape character the candidate's code wrote reached the screen"
    finally:
        # The verdict came from this sandbox's warm judge: end it, as `dojo clean` does (also
        # when the verdict was not the one expected: no later test may be served by it), then
        # nothing of the run may remain.
        stopped = subprocess.run(sandbox.command("clean"), cwd=sandbox.root, env=env, capture_output=True,
                                 text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert stopped.returncode == 0, stopped.stdout + stopped.stderr
    left = lingering(str(tmp_path))
    assert not left, describe(left)
    check_folders(tmp_path)
    check_checkout(before)


PRINTS_ITS_PID = '''
import os

import numpy as np

print(f"PID={os.getpid()} (import)", flush=True)


def softmax(x, axis=-1):
    print(f"PID={os.getpid()}", flush=True)
    x = np.asarray(x, dtype=np.float64)
    if x.ndim == 0 or not -x.ndim <= axis < x.ndim or x.shape[axis] == 0:
        raise ValueError("x must have the axis, with at least one entry along it")
    if np.isnan(x).any() or np.isposinf(x).any():
        raise ValueError("NaN or +inf")
    peak = x.max(axis=axis, keepdims=True)
    if np.isneginf(peak).any():
        raise ValueError("a slice is entirely -inf")
    e = np.exp(x - peak)
    return e / e.sum(axis=axis, keepdims=True)
'''


def test_the_candidates_code_never_runs_in_the_judges_process(tmp_path):
    """Everything the kata file does, at import and in every call, happens in other processes."""
    impl = tmp_path / "impl"
    impl.mkdir()
    (impl / "softmax.py").write_text(PRINTS_ITS_PID)
    env = own_environ(tmp_path, dict(os.environ, DOJO_STATE_DIR=str(tmp_path / "state")))
    proc = subprocess.Popen(
        [sys.executable, "-m", "pytest", "tests/test_softmax.py", f"--impl={impl}", "-q", "-s",
         "-p", "no:cacheprovider", "-p", "no:xdist"],
        cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        stdin=subprocess.DEVNULL,
    )
    try:
        out, _ = proc.communicate(timeout=RUN_TIMEOUT)
    finally:
        proc.kill()
    pids = [int(p) for p in re.findall(r"PID=(\d+)", out)]
    assert proc.returncode == 0, out[-3000:]
    assert "(import)" in out and len(pids) > 10, out[-3000:]  # printed at import and per call
    assert proc.pid not in pids, f"the kata's code ran in the judge's process ({proc.pid})"
    assert not lingering(str(tmp_path))
