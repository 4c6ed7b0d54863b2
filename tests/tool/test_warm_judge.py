"""The warm judge and the run seed, through the real ``dojo`` entry point in a sandbox.

- every run draws from a seed of its own, and says it; ``dojo test KATA --seed N`` draws that
  run's examples again, and the next plain run tries the last failing input first;
- a verdict is the same whether the warm judge gives it or a fresh interpreter does
  (``DOJO_WARM=0``);
- the warm judge listens in a folder and on a socket only its user can open, ends when idle
  and leaves nothing behind, and a killed one is replaced without losing the verdict.

The server tests give the sandbox a runtime folder of its own (``XDG_RUNTIME_DIR``), so their
warm judge is not the one the other sandboxes share.
"""

from __future__ import annotations

import difflib
import json
import os
import re
import shutil
import signal
import stat
import tempfile
import time
from pathlib import Path

import pytest

from tests.tool.harness import REPO

KATA = "softmax"
ENDED = "Stopped the warm judge of this checkout (the next verdict starts it again)."


def seed_of(out: str) -> int:
    (seed,) = re.findall(r"\(\d+\.\d s, seed (\d+)\)", out)
    return int(seed)


def failing(out: str) -> set[str]:
    return {line.strip() for line in out.splitlines() if line.strip().startswith("✗")}


def without_time(out: str) -> str:
    return re.sub(r"\(\d+\.\d s, ", "(", out)


def same_verdict(a: str, b: str) -> None:
    """The two verdicts are the same but for the time; else the lines that differ."""
    a, b = without_time(a), without_time(b)
    assert a == b, "\n".join(difflib.unified_diff(a.splitlines(), b.splitlines(), lineterm=""))


@pytest.fixture
def runtime():
    """A runtime folder of this test's own (short: a socket's path holds 108 bytes)."""
    folder = Path(tempfile.mkdtemp(prefix="dj-", dir="/tmp" if os.path.isdir("/tmp") else None))
    try:
        yield folder
    finally:
        for about in folder.rglob("*.json"):  # whatever the test left running
            try:
                os.kill(int(json.loads(about.read_text())["pid"]), signal.SIGKILL)
            except (OSError, ValueError, KeyError, TypeError):
                pass
        shutil.rmtree(folder, ignore_errors=True)


def servers(runtime: Path) -> dict[Path, int]:
    """The warm judges that said they listen in ``runtime``: their info file and pid."""
    found = {}
    for about in runtime.glob("dojo-judge-*/*.json"):
        try:
            found[about] = int(json.loads(about.read_text())["pid"])
        except (OSError, ValueError, KeyError, TypeError):
            continue
    return found


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except OSError:
        return False


def test_each_run_draws_its_own_seed_the_seed_draws_it_again_and_the_next_run_retries_the_failure(
        sandbox, wrong):
    sandbox.write_kata(KATA, wrong(KATA, "shifts_by_mean"))
    first = sandbox.run("test", KATA)
    assert first.code == 1, first.out + first.err
    seed = seed_of(first.out)
    assert f"this run's examples again: `dojo test {KATA} --seed {seed}`" in first.out
    saved = [p for p in (sandbox.state / "examples").rglob("*") if p.is_file()]
    assert saved, "the failing inputs are kept for the next run (Hypothesis's example database)"

    again = sandbox.run("test", KATA)  # a new seed; the failing input of the last run first
    assert again.code == 1, again.out + again.err
    assert seed_of(again.out) != seed
    assert failing(first.out) <= failing(again.out)  # what failed fails again: retried, not redrawn by chance

    replayed = sandbox.run("test", KATA, "--seed", str(seed))  # no failures replayed: run `seed` itself
    assert replayed.code == 1, replayed.out + replayed.err
    assert seed_of(replayed.out) == seed
    same_verdict(first.out, replayed.out)

    cold = sandbox.run("test", KATA, "--seed", str(seed), env={"DOJO_WARM": "0"})
    same_verdict(first.out, cold.out)  # the warm judge changes nothing but the time


def test_dojo_seed_fixes_the_seed_of_every_run_and_ignores_what_is_no_seed(sandbox, wrong):
    sandbox.write_kata(KATA, wrong(KATA, "shifts_by_mean"))
    fixed = sandbox.run("test", KATA, env={"DOJO_SEED": "12345"})
    assert fixed.code == 1 and seed_of(fixed.out) == 12345, fixed.out + fixed.err
    for junk in ("4294967296", "-1", "١٢"):  # 2**32, negative, not ASCII digits: a seed of its own
        r = sandbox.run("test", KATA, env={"DOJO_SEED": junk})
        assert r.code == 1 and seed_of(r.out) != 12345 and str(seed_of(r.out)) != junk, r.out + r.err


@pytest.mark.smoke
def test_a_passing_answer_passes_warm_and_cold_alike(sandbox, solution):
    sandbox.write_kata(KATA, solution(KATA))
    warm = sandbox.run("test", KATA)
    cold = sandbox.run("test", KATA, env={"DOJO_WARM": "0"})
    assert warm.code == cold.code == 0, warm.out + warm.err + cold.out + cold.err
    assert "Passed: 14 of 14 properties pass" in warm.out and "Passed: 14 of 14 properties pass" in cold.out
    assert "--seed" not in warm.out  # a pass has nothing to replay


@pytest.mark.smoke
def test_the_warm_judge_is_private_to_its_user_and_ends_when_idle_leaving_nothing(sandbox, solution, runtime):
    sandbox.write_kata(KATA, solution(KATA))
    env = {"XDG_RUNTIME_DIR": str(runtime), "DOJO_JUDGE_IDLE": "600"}
    r = sandbox.run("test", KATA, env=env)
    assert r.code == 0, r.out + r.err
    (about, pid), = servers(runtime).items()
    where = about.parent
    assert stat.S_IMODE(where.stat().st_mode) == 0o700 and where.stat().st_uid == os.getuid()
    sock = about.with_suffix(".sock")
    assert stat.S_ISSOCK(sock.stat().st_mode) and stat.S_IMODE(sock.stat().st_mode) == 0o600
    with open(f"/proc/{pid}/cmdline", "rb") as f:
        assert b"dojo.judge.judge_server" in f.read()

    cleaned = sandbox.run("clean", env=env)  # ends this checkout's warm judge (SIGTERM): it cleans up
    assert cleaned.code == 0 and ENDED in cleaned.out, cleaned.out + cleaned.err
    deadline = time.monotonic() + 60
    while alive(pid) or sock.exists() or about.exists():
        assert time.monotonic() < deadline, sorted(p.name for p in where.iterdir())
        time.sleep(0.05)
    assert [p.name for p in where.iterdir()] == []  # no socket, no info, no log, no lock


def test_an_idle_warm_judge_ends_by_itself(sandbox, solution, runtime):
    sandbox.write_kata(KATA, solution(KATA))
    env = {"XDG_RUNTIME_DIR": str(runtime), "DOJO_JUDGE_IDLE": "1"}
    r = sandbox.run("test", KATA, env=env)
    assert r.code == 0, r.out + r.err
    (about, pid), = servers(runtime).items() or [(None, None)]
    deadline = time.monotonic() + 60
    while about is not None and (alive(pid) or about.exists()):
        assert time.monotonic() < deadline, sorted(p.name for p in about.parent.iterdir())
        time.sleep(0.05)
    assert [p.name for p in runtime.glob("dojo-judge-*/*")] == []


def test_a_killed_warm_judge_is_replaced_and_the_verdict_still_comes(sandbox, wrong, runtime):
    sandbox.write_kata(KATA, wrong(KATA, "shifts_by_mean"))
    env = {"XDG_RUNTIME_DIR": str(runtime), "DOJO_JUDGE_IDLE": "600"}
    first = sandbox.run("test", KATA, env=env)
    assert first.code == 1, first.out + first.err
    (about, pid), = servers(runtime).items()
    os.kill(pid, signal.SIGKILL)  # no clean-up: its socket file stays behind
    deadline = time.monotonic() + 60
    while alive(pid):
        assert time.monotonic() < deadline
        time.sleep(0.05)
    second = sandbox.run("test", KATA, env=env)
    assert second.code == 1, second.out + second.err
    assert failing(first.out) <= failing(second.out)
    assert "Traceback" not in second.out + second.err and second.err == ""
    replaced = servers(runtime)
    assert list(replaced.values()) != [pid] and all(alive(p) for p in replaced.values())


def test_a_runtime_folder_too_long_for_a_socket_falls_back_to_the_temporary_folder(sandbox, solution, runtime):
    """A socket's path holds 108 bytes: where ``$XDG_RUNTIME_DIR`` is too long for one (as a
    long ``TMPDIR`` is on macOS and under test runners), the warm judge listens in the
    temporary folder instead. (It used to bind nowhere, and every verdict waited 30 s for it.)"""
    sandbox.write_kata(KATA, solution(KATA))
    deep = runtime / ("r" * 100)
    deep.mkdir()
    env = {"XDG_RUNTIME_DIR": str(deep), "TMPDIR": str(runtime), "DOJO_JUDGE_IDLE": "600"}
    r = sandbox.run("test", KATA, env=env)
    assert r.code == 0 and "Passed: 14 of 14 properties pass" in r.out, r.out + r.err
    (about, pid), = servers(runtime).items()  # runtime/dojo-judge-UID/, not under the long folder
    assert about.with_suffix(".sock").exists() and alive(pid)
    assert not list(deep.rglob("*.sock"))
    cleaned = sandbox.run("clean", env=env)
    assert cleaned.code == 0 and ENDED in cleaned.out, cleaned.out + cleaned.err


def prepared(server: int) -> set[int]:
    """The warm judge's children waiting for a request (forks of it: the same command line)."""
    found = set()
    for proc in Path("/proc").iterdir():
        try:
            ppid = int((proc / "stat").read_bytes().rsplit(b")", 1)[1].split()[1])
            command = (proc / "cmdline").read_bytes()
        except (OSError, ValueError, IndexError):
            continue
        if ppid == server and b"dojo.judge.judge_server" in command and alive(int(proc.name)):
            found.add(int(proc.name))
    return found


def test_a_child_prepared_ahead_serves_the_next_verdict_and_sees_what_changed_since(
        sandbox, solution, wrong, runtime):
    """After the second verdict of a kind the warm judge prepares a child per shard up to the
    kata's file (dojo/judge/primed.py); the next verdict uses them, and still judges the file as it is
    now, with a seed of its own. A request they were not prepared for (the language changed,
    so the judge's environment did) gets fresh children, and its own language."""
    sandbox.write_kata(KATA, solution(KATA))
    env = {"XDG_RUNTIME_DIR": str(runtime), "DOJO_JUDGE_IDLE": "600", "DOJO_LANG": None, "LANG": "C.UTF-8"}
    once = sandbox.run("test", KATA, env=env)
    assert once.code == 0, once.out + once.err
    (about, pid), = servers(runtime).items()
    assert not prepared(pid)  # a checkout judged once prepares nothing (the suite's sandboxes)
    first = sandbox.run("test", KATA, env=env)  # the second request like it: then children are prepared
    assert first.code == 0 and "Passed: 14 of 14 properties pass" in first.out, first.out + first.err
    deadline = time.monotonic() + 60
    from dojo.judge.runner import shard_count

    while len(waiting := prepared(pid)) < shard_count():  # one per shard
        assert time.monotonic() < deadline, f"children prepared for the next verdict: {waiting}"
        time.sleep(0.05)

    sandbox.write_kata(KATA, wrong(KATA, "shifts_by_mean"))
    second = sandbox.run("test", KATA, env=env)
    assert second.code == 1 and seed_of(second.out) != seed_of(first.out), second.out
    assert not waiting & prepared(pid), "the prepared children were not the ones that judged"

    assert sandbox.run("lang", "zh", env=env).code == 0
    # the second run's examples again (its seed), so the same properties fail: on a seed of
    # its own, with the second run's failures tried first, it may find one more (it did, once)
    third = sandbox.run("test", KATA, "--seed", str(seed_of(second.out)), env=env)
    assert third.code == 1 and "数值稳定的 softmax" in third.out and "种子" in third.out, third.out + third.err
    assert len(failing(third.out)) == len(failing(second.out)), second.out + third.out


#: A warm judge whose SIGTERM arrives while a finalizer runs (``__del__``, or a generator the
#: garbage collector closes): Python prints the handler's SystemExit ("Exception ignored in")
#: and goes on. The imports are left out: this is about the end, not the start.
TERMINATED_IN_A_FINALIZER = """
import os, signal, sys
from dojo.judge import judge_key, judge_server, warm_up

class SignalledWhileFinalized:
    def __del__(self):
        os.kill(os.getpid(), signal.SIGTERM)
        sum(range(100_000))  # the handler runs here, inside __del__

warm_up.first = lambda root: SignalledWhileFinalized()
judge_key.private(judge_key.folder())  # as its client makes it
sys.exit(judge_server.main(sys.argv[1:]))
"""


def test_a_warm_judge_ends_on_sigterm_even_when_it_arrives_inside_a_finalizer(runtime):
    """`dojo clean` ends a warm judge with SIGTERM; once in CI the signal came while a finalizer
    ran, its SystemExit was ignored, and the judge (and its zygote) stayed until idle."""
    import subprocess
    import sys

    from tests.tool.harness import REPO

    env = dict(os.environ, XDG_RUNTIME_DIR=str(runtime), DOJO_JUDGE_IDLE="600")
    proc = subprocess.Popen([sys.executable, "-c", TERMINATED_IN_A_FINALIZER, "finalizer-test", str(REPO)],
                            cwd=REPO, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        out, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        pytest.fail(f"the warm judge ignored SIGTERM:\n{err[-2000:]}")
    assert "Exception ignored" in err and "SystemExit" in err, err  # the case this is about happened
    assert proc.returncode == 0, err
    assert [p.name for p in runtime.glob("dojo-judge-*/*")] == []  # no socket, no info, no lock


def start_server(sandbox, key: str, runtime: Path):
    """A warm judge of key ``key`` for ``sandbox``'s checkout, started as its client starts one."""
    import subprocess
    import sys

    env = dict(sandbox.environ(), XDG_RUNTIME_DIR=str(runtime), DOJO_JUDGE_IDLE="600")
    return subprocess.Popen([sys.executable, "-m", "dojo.judge.judge_server", key, str(sandbox.root)],
                            cwd=sandbox.root, env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)


def test_two_copies_of_one_judge_started_at_once_leave_one_server_and_clean_ends_each(
        sandbox, solution, runtime, tmp_path):
    """Copies of one judge share a key (the suite's sandboxes). Two of them can start a server
    at once: the later replaces the socket and the info file. In CI the earlier one stayed,
    unseen by `dojo clean` (it read the info file only), until idle. Now the replaced server
    takes no more requests and ends once it has served its own; `dojo clean` finds a server of
    its checkout by its command line too."""
    from tests.tool.harness import Sandbox

    sandbox.write_kata(KATA, solution(KATA))
    env = {"XDG_RUNTIME_DIR": str(runtime), "DOJO_JUDGE_IDLE": "600"}
    r = sandbox.run("test", KATA, env=env)
    assert r.code == 0, r.out + r.err
    (about, first), = servers(runtime).items()
    (tmp_path / "b").mkdir()
    other = Sandbox(tmp_path / "b")
    second = start_server(other, about.stem, runtime)
    try:
        deadline = time.monotonic() + 90
        while alive(first):  # replaced: it ends by itself, having nothing to serve
            assert time.monotonic() < deadline, "the replaced warm judge did not end"
            time.sleep(0.05)
        assert servers(runtime) == {about: second.pid} and alive(second.pid)
        again = sandbox.run("test", KATA, env=env)  # served by the copy's server
        assert again.code == 0, again.out + again.err
        assert servers(runtime) == {about: second.pid}
        cleaned = sandbox.run("clean", env=env)  # not this checkout's server: it stays
        assert cleaned.code == 0 and ENDED not in cleaned.out and alive(second.pid), cleaned.out
        cleaned = other.run("clean", env=env)
        assert cleaned.code == 0 and ENDED in cleaned.out, cleaned.out + cleaned.err
        assert second.wait(timeout=60) == 0  # `dojo clean` waited for it to end
    finally:
        second.kill()
        second.wait()


def pending(pid: int, sig: int) -> bool:
    """Signal ``sig`` is pending for process ``pid`` (it is stopped, say)."""
    fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    return any(int(fields.get(name, "0").strip(), 16) >> (sig - 1) & 1 for name in ("SigPnd", "ShdPnd"))


def test_clean_ends_a_warm_judge_that_is_still_starting(sandbox, runtime):
    """A server still importing has written no info file yet: `dojo clean` finds it by its
    command line and ends it (it used to stay, and start listening after the clean)."""
    import subprocess

    from dojo.judge.judge_key import key

    starting = start_server(sandbox, key(sandbox.root), runtime)
    try:
        os.kill(starting.pid, signal.SIGSTOP)  # still starting, and kept so until it is signalled
        env = dict(sandbox.environ(), XDG_RUNTIME_DIR=str(runtime))
        clean = subprocess.Popen(sandbox.command("clean"), cwd=sandbox.root, env=env, stdin=subprocess.DEVNULL,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 60
        while not pending(starting.pid, signal.SIGTERM):
            assert time.monotonic() < deadline and clean.poll() is None, clean.communicate()
            time.sleep(0.02)
        os.kill(starting.pid, signal.SIGCONT)
        out, err = clean.communicate(timeout=60)
        assert clean.returncode == 0 and ENDED in out, out + err
        assert starting.wait(timeout=60) != 0 or not alive(starting.pid)
        assert not servers(runtime)
    finally:
        starting.kill()
        starting.wait()


def test_a_judge_stopped_by_the_tools_backstop_is_said_to_be_the_judges_doing(tmp_path, monkeypatch):
    """The backstop (dojo/judge/runner.py RUN_TIMEOUT) is wall time. Stop 54's rehearsal met it
    with a right answer under CI's load, and the verdict said "timed out", the state of code that
    never returns. It is the judge's doing (every call into the candidate's code has its own
    limits): the verdict says so, and nothing of the stopped judge is left."""
    from dojo.catalogue import registry
    from dojo.catalogue.env import Env
    from dojo.judge import runner
    from dojo.screens.render import verdict_lines

    monkeypatch.setenv("DOJO_STATE_DIR", str(tmp_path / "state"))
    env = Env(root=REPO, state_dir=tmp_path / "state")
    impl = tmp_path / "impl"
    impl.mkdir()
    shutil.copy(REPO / "solutions" / f"{KATA}.py", impl)
    kata = registry.get(KATA)
    verdict = runner.cold_judge(env, kata, impl, timeout=0.2)  # starting pytest alone takes longer
    assert verdict.state == "incomplete" and verdict.problem["id"] == "verdict.judge-timeout", verdict
    shown = "\n".join(str(line) for line in verdict_lines(env, verdict, kata, f"katas/{KATA}.py"))
    assert "not your fault" in shown and "timed out" not in shown, shown
    deadline = time.monotonic() + 10  # SIGKILLed: gone at once, but give a busy machine time
    while _judging(impl) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _judging(impl), "a process of the stopped judge is left"


def _judging(impl: Path) -> list[str]:
    """The live processes whose command line names ``impl`` (the stopped judge and its workers)."""
    found = []
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and str(impl).encode() in (proc / "cmdline").read_bytes() \
                    and alive(int(proc.name)):
                found.append(proc.name)
        except OSError:
            continue
    return found
