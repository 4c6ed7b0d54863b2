"""The practice loop, driven through the real ``dojo`` entry point (issue: dojo practice loop)."""

import json
import os
import pty
import select
import signal
import subprocess
import time

import pytest

from dojo.catalogue import registry

HANGS = '''import numpy as np


def softmax(x, axis=-1):
    while True:
        pass
'''
SYNTAX_ERROR = '''import numpy as np


def softmax(x, axis=-1):
    return np.exp(x) /
'''
USES_TORCH = '''import numpy as np
import torch


def softmax(x, axis=-1):
    return torch.softmax(torch.as_tensor(x), dim=axis).numpy()
'''


def test_first_run_welcomes_then_shows_progress_and_the_next_step(sandbox):
    first = sandbox.run()
    assert first.code == 0
    assert "Welcome to attention dojo" in first.out
    for module in ("softmax", "masked_attention", "causal_self_attention", "multihead_attention"):
        assert module in first.out
    assert "not started" in first.out
    assert "dojo show softmax" in first.out
    second = sandbox.run()
    assert "Welcome" not in second.out
    assert second.out.count("not started") == len(registry.KATAS)


@pytest.mark.smoke
def test_a_solved_kata_passes_and_is_remembered(sandbox, solution):
    sandbox.write_kata("softmax", solution("softmax"))
    result = sandbox.run("test", "softmax")
    assert result.code == 0, result.out + result.err
    assert "Passed: 14 of 14 properties pass" in result.out
    assert "✗" not in result.out
    assert "Next: masked_attention" in result.out
    table = sandbox.run("list").out
    assert "passed: 14 of 14 properties pass" in table
    state = json.loads((sandbox.state / "state.json").read_text())
    assert state["katas"]["softmax"]["solved"] is True


@pytest.mark.smoke
def test_a_wrong_kata_fails_with_a_readable_first_failure(sandbox, wrong):
    sandbox.write_kata("softmax", wrong("softmax", "global_max_shift"))
    result = sandbox.run("test", "softmax")
    assert result.code == 1
    assert "✗ Slices whose scales differ by 1e4" in result.out
    assert "First failure:" in result.out
    assert "failing input (shrunk by Hypothesis)" in result.out
    assert "behaves like a known bug" in result.out.split("First failure:")[1]  # a named bug comes first
    assert "Traceback" not in result.out
    assert "failing" in sandbox.run("list").out
    # a comparison shown first reads expected and got
    sandbox.write_kata("softmax", wrong("softmax", "float32_arithmetic"))
    result = sandbox.run("test", "softmax")
    first = result.out.split("First failure:")[1]
    assert result.code == 1 and "expected:" in first and "got:" in first, result.out


@pytest.mark.smoke
def test_the_untouched_stub_is_not_started(sandbox):
    result = sandbox.run("test", "softmax")
    assert result.code == 1
    assert "not started" in result.out
    assert "NotImplementedError" in result.out


@pytest.mark.smoke
def test_a_hanging_kata_is_stopped_and_reported(sandbox):
    sandbox.write_kata("softmax", HANGS)
    result = sandbox.run("test", "softmax")  # bounded by the run's own timeout, not a clock here
    assert result.code == 1
    assert "timed out" in result.out
    assert "infinite loop" in result.out
    assert result.out.count("timed out") == 1  # the label once, not "timed out: timed out: …"


@pytest.mark.contributors  # live or long: the contributors' suite
def test_a_hang_inside_a_property_stops_that_kata_and_skips_the_rest(sandbox, wrong):
    # passes the quick first check, then loops forever on the first slice longer than three
    sandbox.write_kata("softmax", wrong("softmax", "hangs_on_long_slices"))
    result = sandbox.run("test", "softmax")
    assert result.code == 1
    assert "timed out" in result.out and "infinite loop" in result.out
    assert "(skipped)" in result.out
    assert "timed out" in sandbox.run("list").out


def test_a_syntax_error_points_at_the_users_line(sandbox):
    sandbox.write_kata("softmax", SYNTAX_ERROR)
    result = sandbox.run("test", "softmax")
    assert result.code == 1
    assert "cannot import" in result.out
    assert "line 5" in result.out


def test_importing_torch_breaks_the_numpy_only_rule(sandbox):
    sandbox.write_kata("softmax", USES_TORCH)
    result = sandbox.run("test", "softmax")
    assert result.code == 1
    # the label names the rule once; the account says what broke it (not "…rule: NumPy only: …")
    assert ("  breaks NumPy-only rule: softmax.py imports torch at line 2; a kata may import NumPy and "
            "nothing like it (torch, jax, jaxlib, tensorflow, scipy … are not allowed).") in result.out
    assert "NumPy only:" not in result.out


def test_unknown_kata_suggests_the_closest_names(sandbox):
    result = sandbox.run("test", "sofmax")
    assert result.code == 2
    assert "did you mean 'softmax'" in result.err.lower()
    assert "masked_attention" in result.err


def test_bad_flags_print_the_usage_line(sandbox):
    result = sandbox.run("test", "softmax", "--frobnicate")
    assert result.code == 2
    assert result.err.startswith("usage: dojo")


def test_show_renders_the_contract_and_the_properties(sandbox):
    result = sandbox.run("show", "masked_attention")
    assert result.code == 0
    assert "def scaled_dot_product_attention(q, k, v, mask=None)" in result.out
    assert "katas/masked_attention.py" in result.out
    assert "may attend" in result.out.lower()
    assert "What the judge checks" in result.out
    assert result.out.count("•") >= 8


def test_hints_come_one_at_a_time_and_are_recorded(sandbox):
    first = sandbox.run("hint", "softmax")
    assert "hint 1 of 4" in first.out
    second = sandbox.run("hint", "softmax")
    assert "hint 2 of 4" in second.out
    assert "2/4" in sandbox.run("list").out
    for _ in range(2):
        sandbox.run("hint", "softmax")
    done = sandbox.run("hint", "softmax")
    assert "No more hints" in done.out


def test_reset_then_restore_round_trips_byte_for_byte(sandbox):
    mine = "import numpy as np\n\n\ndef softmax(x, axis=-1):\n    return x  # my work in progress \u00e9\r\n"
    sandbox.kata("softmax").write_bytes(mine.encode("utf-8"))
    reset = sandbox.run("reset", "softmax", "--yes")
    assert reset.code == 0, reset.err
    assert "Backed up your file to" in reset.out
    assert "NotImplementedError" in sandbox.kata("softmax").read_text()
    backups = list((sandbox.state / "backups" / "softmax").glob("*.py"))
    assert len(backups) == 1 and backups[0].read_bytes() == mine.encode("utf-8")
    restore = sandbox.run("restore", "softmax")
    assert restore.code == 0, restore.err
    assert sandbox.kata("softmax").read_bytes() == mine.encode("utf-8")
    # what restore replaced was the untouched stub: nothing to lose, so no backup of it
    assert len(list((sandbox.state / "backups" / "softmax").glob("*.py"))) == 1


def test_reset_without_a_terminal_asks_for_yes_and_touches_nothing(sandbox):
    sandbox.write_kata("softmax", "# my work\n")
    result = sandbox.run("reset", "softmax")
    assert result.code == 2
    assert "--yes" in result.err
    assert sandbox.kata("softmax").read_text() == "# my work\n"


def test_restore_without_backups_is_a_clear_error(sandbox):
    result = sandbox.run("restore", "softmax")
    assert result.code == 2
    assert "no backups" in result.err


def test_a_corrupt_state_file_is_set_aside_with_a_warning(sandbox):
    sandbox.state.mkdir(parents=True)
    (sandbox.state / "state.json").write_text("{ this is not json")
    result = sandbox.run()
    assert result.code == 0
    assert "could not be read" in result.err
    aside = list(sandbox.state.glob("state.json.corrupt-*"))
    assert len(aside) == 1 and aside[0].read_text() == "{ this is not json"
    assert "softmax" in result.out


def test_the_solution_is_earned_or_given_up_on(sandbox, solution):
    locked = sandbox.run("solution", "softmax")
    assert locked.code == 2
    assert "--give-up" in locked.err
    given = sandbox.run("solution", "softmax", "--give-up")
    assert given.code == 0
    assert "def softmax" in given.out
    assert "(gave up)" in sandbox.run("list").out
    sandbox.write_kata("masked_attention", solution("masked_attention"))
    assert sandbox.run("test", "masked_attention").code == 0
    earned = sandbox.run("solution", "masked_attention")
    assert earned.code == 0 and "def scaled_dot_product_attention" in earned.out


@pytest.mark.contributors  # live or long: the contributors' suite
def test_check_rejudges_every_kata(sandbox, solution):
    sandbox.write_kata("softmax", solution("softmax"))
    result = sandbox.run("check")
    assert result.code == 1  # the other katas are still stubs
    total = len(registry.KATAS)
    assert f"[1/{total}] judging softmax… passed: 14 of 14 properties pass" in result.out
    assert f"[{total}/{total}] judging {registry.KATAS[-1].module}… not started" in result.out


def _line_done(text: str, needle: str) -> bool:
    at = text.find(needle)
    return at >= 0 and "\n" in text[at:]


def _read_until(proc_fd_or_stream, needle: str, timeout: float, buffer: list) -> str:
    """Read output until the line holding ``needle`` is complete (its newline has arrived), with
    a deadline; returns everything read so far. Wait for the LAST line you need: output after
    the first chunk keeps arriving."""
    deadline = time.monotonic() + timeout
    while not _line_done("".join(buffer), needle):
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"did not see {needle!r} within {timeout} s; output so far:\n{''.join(buffer)}")
        if isinstance(proc_fd_or_stream, int):
            ready, _, _ = select.select([proc_fd_or_stream], [], [], min(left, 0.2))
            if ready:
                try:
                    chunk = os.read(proc_fd_or_stream, 4096).decode(errors="replace")
                except OSError:
                    chunk = ""
                buffer.append(chunk)
        else:
            ready, _, _ = select.select([proc_fd_or_stream], [], [], min(left, 0.2))
            if ready:
                buffer.append(os.read(proc_fd_or_stream.fileno(), 4096).decode(errors="replace"))
    return "".join(buffer)


@pytest.mark.smoke
@pytest.mark.contributors  # live or long: the contributors' suite
def test_watch_rejudges_after_a_save_and_quits_on_q(sandbox, wrong, solution):
    proc = sandbox.popen("watch", "softmax")
    out: list[str] = []
    try:
        _read_until(proc.stdout, "not started", 60, out)
        sandbox.write_kata("softmax", wrong("softmax", "no_max_shift"))
        _read_until(proc.stdout, "First failure", 60, out)
        sandbox.write_kata("softmax", solution("softmax"))
        # the last line watch prints for a pass: the Next line comes before it
        text = _read_until(proc.stdout, "Press n to watch it now, q to quit.", 60, out)
        assert text.count("checking…") == 3
        # the earlier failure is still on screen: watch never clears it away
        assert text.index("First failure") < text.index("Passed: 14 of 14 properties pass")
        assert "Next: masked_attention" in text
        proc.stdin.write("q")
        proc.stdin.flush()
        assert proc.wait(timeout=20) == 0
    finally:
        proc.kill()


@pytest.mark.contributors  # live or long: the contributors' suite
def test_a_save_while_judging_stops_that_run_and_only_the_new_content_gets_a_verdict(sandbox, wrong, solution):
    """Two saves 0.2 s apart: the first content's run is stopped, no verdict is shown for it."""
    proc = sandbox.popen("watch", "softmax", "--debounce", "0")
    out: list[str] = []
    try:
        _read_until(proc.stdout, "not started", 60, out)
        sandbox.write_kata("softmax", wrong("softmax", "no_max_shift"))
        _read_until(proc.stdout, "checking…", 60, out)
        time.sleep(0.2)  # the second save lands while the first is being judged
        sandbox.write_kata("softmax", solution("softmax"))
        text = _read_until(proc.stdout, "Press n to watch it now, q to quit.", 60, out)
        after_wrong_save = text[text.index("not started"):]
        assert "First failure" not in after_wrong_save  # no verdict for content no longer there
        assert "saved again while checking" in after_wrong_save
        assert "Passed: 14 of 14 properties pass" in after_wrong_save
        proc.stdin.write("q")
        proc.stdin.flush()
        assert proc.wait(timeout=20) == 0
    finally:
        proc.kill()


@pytest.mark.contributors  # live or long: the contributors' suite
def test_ctrl_c_in_watch_exits_130_and_h_after_a_pass_spends_no_hint(sandbox, solution):
    sandbox.write_kata("softmax", solution("softmax"))
    proc = sandbox.popen("watch", "softmax")
    out: list[str] = []
    try:
        _read_until(proc.stdout, "Press n to watch it now, q to quit.", 60, out)
        proc.stdin.write("h")
        proc.stdin.flush()
        _read_until(proc.stdout, "passes already: no hint spent", 20, out)
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=20) == 130
    finally:
        proc.kill()
    assert "hint 1 of" not in "".join(out)
    state = json.loads((sandbox.state / "state.json").read_text())
    assert state["katas"]["softmax"].get("hints_used", 0) == 0


@pytest.mark.contributors  # live or long: the contributors' suite
def test_watch_in_a_real_terminal(sandbox, solution):
    """End to end in a pseudo-terminal: single-key input, hint on h, verdict on save, q quits."""
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        sandbox.command("watch", "softmax"), cwd=sandbox.root, env=sandbox.environ(),
        stdin=slave, stdout=slave, stderr=slave, close_fds=True,
    )
    os.close(slave)
    out: list[str] = []
    try:
        _read_until(master, "not started", 60, out)
        os.write(master, b"h")  # no Enter: the terminal is in cbreak mode
        _read_until(master, "hint 1 of 4", 20, out)
        sandbox.write_kata("softmax", solution("softmax"))
        _read_until(master, "Passed: 14 of 14 properties pass", 60, out)
        os.write(master, b"q")
        assert proc.wait(timeout=20) == 0
    finally:
        proc.kill()
        os.close(master)


def test_killing_the_tool_kills_its_judge(sandbox, tmp_path):
    """kill -9 of `dojo watch` while it judges: the judge it asked for does not run on. (Until stop
    55 this found the zygote the tool started, a child of the tool that died with it; the judge
    itself is the warm judge's child, and it ended by itself within seconds: the file hung in C,
    and the per-call limit stops that.) The file here is right but slow, 1.5 s of CPU a call, so
    its judge would run for its whole budget of CPU, 20 s and more; the sandbox has a warm judge
    of its own (a runtime folder of its own), whose children are this tool's judges."""
    import shutil
    import tempfile

    runtime = tempfile.mkdtemp(prefix="dj-", dir="/tmp")  # short: a socket's path holds 108 bytes
    sandbox.write_kata("softmax", SLOW_BUT_RIGHT)
    proc = subprocess.Popen(sandbox.command("watch", "softmax"), cwd=sandbox.root,
                            env=dict(sandbox.environ(), XDG_RUNTIME_DIR=runtime), stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)
    out: list[str] = []
    try:
        _read_until(proc.stdout, "checking…", 60, out)
        deadline = time.monotonic() + 60
        judges = []
        while not judges and time.monotonic() < deadline:
            judges = _judges_of(sandbox.root)
            time.sleep(0.05)
        assert judges, "no judge process was started"
        proc.kill()
        proc.wait(timeout=10)
        deadline = time.monotonic() + 10
        while any(_alive(pid) for pid in judges) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not [pid for pid in judges if _alive(pid)], "the judge outlived the tool"
    finally:
        proc.kill()
        for server in _servers_of(sandbox.root):
            os.kill(server, signal.SIGKILL)
        shutil.rmtree(runtime, ignore_errors=True)


SLOW_BUT_RIGHT = '''import time

import numpy as np


def softmax(x, axis=-1):
    start = time.process_time()
    while time.process_time() - start < 1.5:  # 1.5 s of CPU a call: under the 2 s limit of one call
        pass
    x = np.asarray(x, dtype=np.float64)
    if x.ndim == 0 or x.shape[axis] == 0 or np.isnan(x).any() or np.isposinf(x).any():
        raise ValueError("bad x")
    if (x == -np.inf).all(axis=axis).any():
        raise ValueError("a slice is all -inf")
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)
'''


def _started_for(root) -> set[int]:
    """The warm judge started for ``root`` (dojo/judge/judge_server.py) and the children it forked
    (they keep its command line; its zygote runs another program)."""
    found = set()
    for entry in os.listdir("/proc"):
        try:
            argv = open(f"/proc/{entry}/cmdline", "rb").read().split(b"\0")
        except OSError:
            continue
        if b"dojo.judge.judge_server" in argv and str(root).encode() in argv:
            found.add(int(entry))
    return found


def _servers_of(root) -> list[int]:
    started = _started_for(root)
    return [pid for pid in started if _parent_of(pid) not in started]


def _judges_of(root) -> list[int]:
    """The judges the warm judge of ``root`` forked (one per shard; before its first verdict it
    has prepared none)."""
    started = _started_for(root)
    return [pid for pid in started if _parent_of(pid) in started]


def _parent_of(pid: int) -> int | None:
    try:
        return int(open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return None


def _alive(pid: int) -> bool:
    try:
        stat = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    except OSError:
        return False
    return stat[0] != "Z"


def test_watch_without_a_kata_watches_the_one_you_are_on(sandbox, wrong):
    """As `dojo test` and `dojo hint` without a kata: the one judged last (it fails), not the
    first kata of the registry that does not pass (softmax, not started here)."""
    sandbox.write_kata("masked_attention", wrong("masked_attention", "inverted_mask"))
    assert sandbox.run("test", "masked_attention").code == 1
    proc = sandbox.popen("watch")
    out: list[str] = []
    try:
        text = _read_until(proc.stdout, "First failure", 60, out)
        assert "Watching katas/masked_attention.py" in text
        assert "katas/softmax.py" not in text
        proc.stdin.write("q")
        proc.stdin.flush()
        assert proc.wait(timeout=20) == 0
    finally:
        proc.kill()


@pytest.mark.contributors  # one whole judge run of batched attention (5-9 s)
def test_a_failure_on_a_fixed_example_is_not_said_to_be_shrunk(sandbox, solution):
    # right everywhere but on the padded key whose projection overflows, which batched attention's
    # overflow property tries as a fixed @example before anything it draws
    sandbox.write_kata("batched_attention", solution("batched_attention").read_text() + '''

_right = batched_multihead_attention


def batched_multihead_attention(x, *args, key_padding_mask=None, **kwargs):
    x = np.asarray(x)
    if key_padding_mask is not None and x.shape == (2, 3, 2) and x[1, 2, 0] == 1e155:
        return np.zeros((2, 3, 2)), np.zeros((2, 2, 3, 3))
    return _right(x, *args, key_padding_mask=key_padding_mask, **kwargs)
''')
    r = sandbox.run("test", "batched_attention")
    assert r.code == 1, r.out + r.err
    assert r.out.count("✗") == 1 and "✗ Finite inputs whose projection" in r.out, r.out
    assert "failing input, as your function got it:" in r.out and "shrunk" not in r.out, r.out
