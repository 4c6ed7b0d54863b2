"""A worker runs a candidate's function in its own process, and everything it does is measured
or read from outside (dojo/worker/workers.py, dojo/worker/zygote.py, dojo/worker/remote.py)."""

import os
import re
import textwrap
from pathlib import Path

import numpy as np
import pytest

from dojo.worker.loader import KataTimeout
from dojo.worker.remote import (CandidateError, CandidateEscape, CandidateValueError, EarlierResultChanged, InputModified,
                                RemoteFunction, TooSlow)
from dojo.worker.workers import Limits, Worker

#: The worker's sandbox and limits depend on the machine (kernel, Landlock, seccomp): the
#: README's test line runs all of this file.
pytestmark = pytest.mark.smoke

QUICK = Limits(cpu=0.5, idle=1.0, wall=60.0)


def kata_file(tmp_path, body: str, head: str = "import numpy as np\n") -> str:
    path = tmp_path / "kata.py"
    path.write_text(head + "\n\ndef f(x=None):\n" + textwrap.indent(textwrap.dedent(body), "    "))
    return path


@pytest.fixture
def worker(tmp_path):
    made = []

    def make(body, head="import numpy as np\n", limits=QUICK, **kw):
        w = Worker(kata_file(tmp_path, body, head), "f", limits, **kw)
        made.append(w)
        return w

    yield make
    for w in made:
        w.close()


def test_the_code_runs_in_another_process_and_its_patches_stay_there(worker):
    w = worker("np.allclose = lambda *a, **k: True\nreturn os.getpid()", head="import os\nimport numpy as np\n")
    reply = w.call({})
    assert reply.status == "returned" and reply.value != os.getpid()
    assert not np.allclose(1.0, 2.0)  # this process's NumPy is untouched


def test_a_loop_is_stopped_by_its_cpu_time_and_named(worker):
    reply = worker("while True:\n    pass").call({})
    assert reply.status == "hung" and reply.kind == "cpu"
    assert "still computing after 0.5 s of CPU time" in reply.how


def test_code_that_waits_without_computing_is_stopped_and_named(worker):
    reply = worker("import time\ntime.sleep(3600)").call({})
    assert reply.status == "hung" and reply.kind == "idle"
    assert "stopped computing: it waited" in reply.how


@pytest.mark.parametrize("body, words", [
    ("os._exit(0)", "it exited with status 0"),
    ("os.abort()", "SIGABRT"),
    ("import ctypes\nctypes.string_at(0)", "SIGSEGV"),
])
def test_a_worker_that_dies_is_described_and_the_next_call_gets_a_fresh_one(worker, tmp_path, body, words):
    w = worker(f"if x:\n    {body.replace(chr(10), chr(10) + '    ')}\nreturn 1", head="import os\nimport numpy as np\n")
    first = w.call({"x": True})
    assert first.status == "died" and words in first.how, first.how
    assert w.call({"x": False}).value == 1


def test_what_it_prints_is_kept_up_to_the_cap(worker):
    printed = []
    w = worker("print('y' * 50_000)\nos.write(1, b'z' * 50_000)\nreturn 1", head="import os\nimport numpy as np\n",
               on_output=printed.append)
    assert w.call({}).value == 1
    text = "".join(printed)
    assert text.startswith("y") and "more characters of output dropped" in text
    assert len(text) < 20_000


def test_an_input_written_into_is_reported_lists_included(worker):
    w = worker("x[0][0] = 99.0\nreturn 0.0")
    reply = w.call({"x": [[1.0, 2.0], [3.0, 4.0]]})
    assert reply.mutated == {"x": [[99.0, 2.0], [3.0, 4.0]]}
    # by the bits: -0.0 over 0.0 compares equal with == (a hostile round wrote it unseen)
    reply = worker("x[0][1] = -0.0\nreturn 0.0").call({"x": [[1.0, 0.0]]})
    assert list(reply.mutated) == ["x"]
    assert worker("x[0][1] = float('nan')\nreturn 0.0").call({"x": [[1.0, float("nan")]]}).mutated in ({}, None)
    array = np.arange(3.0)
    reply = worker("x += 1\nreturn 0.0").call({"x": array})
    assert list(reply.mutated) == ["x"] and array.tolist() == [0.0, 1.0, 2.0]  # ours untouched


def test_a_write_after_the_call_returned_is_found_and_the_calls_kept_to_check_hold_no_descriptor(worker):
    """Inputs of the last few calls are read again after each answer (dojo/worker/late_writes.py):
    a timer that writes into x after f returned is the judge's finding, and every later call of
    that worker says so. What is kept for that holds no descriptor: eight per worker piled up in
    the judge, and a child it forked with a limit of 64 open files could open none."""
    import time

    w = worker("""
        global _calls
        _calls = globals().get("_calls", 0) + 1
        if _calls == 3:  # the third call's x, written once the call has returned, then a mark
            import threading

            def write():
                x[0] = -1.0
                open("written", "w").close()  # in the worker's own folder, its working directory

            threading.Timer(0.05, write).start()
        return float(np.sum(x))
    """)
    replies = [w.call({"x": np.arange(4.0) + i}) for i in range(3)]
    mark = Path(w.folder) / "written"
    deadline = time.monotonic() + 60  # until the timer has written (polled, never a fixed pause)
    while not mark.exists():
        assert time.monotonic() < deadline, "the worker's timer never wrote"
        time.sleep(0.01)
    later = [w.call({"x": np.arange(4.0)}) for _ in range(3)]
    assert all(r.status == "returned" for r in replies + later), replies + later
    assert not any(r.mutated for r in replies[:2]), [r.mutated for r in replies]
    # the third call's own answer may already have seen it (a slow judge reads it after 50 ms):
    # either way it is the judge's finding, and every later call says it
    assert all(list(r.mutated) == ["x"] for r in later), [r.mutated for r in replies + later]
    if not replies[2].mutated:
        assert "written after your function had returned" in str(later[0].mutated["x"])

    clean = worker("return float(np.sum(x))")  # nothing written late: the last eight calls are kept
    clean.call({"x": np.arange(4.0)})  # running: its channel is open
    descriptors = len(os.listdir("/proc/self/fd"))
    for i in range(12):
        assert not clean.call({"x": np.arange(4.0) + i}).mutated
    assert len(os.listdir("/proc/self/fd")) == descriptors, "the calls kept for the check hold descriptors"


def test_a_write_into_an_earlier_calls_input_many_calls_later_is_found(worker):
    """Beyond the last eight calls (read again after every answer), older calls' inputs are read
    again in turn: code that keeps its first call's x and writes into it at its thirtieth call
    is found within a few answers, and every later call says so."""
    w = worker("""
        global _kept
        _kept = globals().get("_kept", [])
        _kept.append(x)
        if len(_kept) == 30:
            _kept[0][0] = -1.0  # the first call's x, 29 calls after it returned
        return float(np.sum(x))
    """)
    replies = [w.call({"x": np.arange(4.0) + i}) for i in range(45)]
    assert all(r.status == "returned" for r in replies), replies
    found = [i for i, r in enumerate(replies) if r.mutated]
    assert found and 29 <= found[0] <= 29 + 3, found  # 22 older calls, read 8 an answer
    assert found == list(range(found[0], 45)), found
    assert "written after your function had returned" in str(replies[found[0]].mutated["x"])


def test_the_remote_function_raises_what_the_judge_expects(tmp_path):
    path = kata_file(tmp_path, """
        if x == "value":
            raise ValueError("bad input")
        if x == "type":
            raise TypeError("wrong type")
        if x == "exit":
            raise SystemExit(3)
        if x == "write":
            y = [1.0]
            return y
        return np.ones(2)
    """)
    fn = RemoteFunction(path, "f", QUICK)
    try:
        with pytest.raises(CandidateValueError) as e:
            fn(x="value")
        assert isinstance(e.value, ValueError) and e.value.line is not None and "raise ValueError" in e.value.source
        with pytest.raises(CandidateError) as e:
            fn(x="type")
        assert e.value.type_name == "TypeError" and not isinstance(e.value, ValueError)
        with pytest.raises(CandidateEscape, match=r"sys.exit\(3\)"):
            fn(x="exit")
        assert np.array_equal(fn(x=None), np.ones(2))
    finally:
        fn.close()


def test_a_call_that_writes_into_an_earlier_result_is_caught_within_an_example_only(tmp_path):
    """One module-level buffer returned by every call: the second call of an example changes
    the first's result. A view of the call's own input (the caller's memory) and a result too
    large to keep are not checked; a new example starts with nothing kept, so its first call
    replays alone."""
    path = kata_file(tmp_path, """
        global OUT
        if x.shape == (1,):
            return x                      # its own input, the caller's memory
        if x.shape == (3,):
            return OUT                    # the same buffer, not written into
        OUT[...] = x if x.shape == OUT.shape else 0.0
        return OUT
    """, head="import numpy as np\nOUT = np.zeros(2)\n")
    fn = RemoteFunction(path, "f", QUICK)
    try:
        fn.fresh = True
        first = fn(x=np.array([1.0, 2.0]))
        assert np.array_equal(first, [1.0, 2.0])  # a copy, as the judge gets every result
        fn(x=np.array([7.0]))
        fn(x=np.array([8.0]))                     # returns its input: nothing to check
        fn(x=np.arange(3.0))                      # the buffer, unchanged since it was returned
        with pytest.raises(EarlierResultChanged):
            fn(x=np.array([3.0, 4.0]))            # OUT was the (3,)-call's result: now changed
        fn.fresh = True
        assert np.array_equal(fn(x=np.array([5.0, 6.0])), [5.0, 6.0])  # a new example: not checked
        with pytest.raises(EarlierResultChanged):
            fn(x=np.array([5.0, 9.0]))
    finally:
        fn.close()


def test_what_the_candidates_exception_says_of_itself_is_capped(tmp_path):
    """An exception class named with 2 MB: its name went into the state file nine times (each
    property's category), pushed it past its size bound, and the next command set the state
    aside, every other kata's verdict with it (a hostile round). Its name, its message and its
    source line are cut to a bound where the judge reads them."""
    from dojo.worker.remote import MESSAGE_LIMIT, SOURCE_LIMIT, TYPE_NAME_LIMIT

    path = kata_file(tmp_path, """
        Long = type("E" * 2_000_000, (Exception,), {})
        raise Long("m" * 100_000)
    """)
    fn = RemoteFunction(path, "f", QUICK)
    try:
        with pytest.raises(CandidateError) as e:
            fn(x=None)
        assert e.value.type_name.startswith("EEE") and len(e.value.type_name) == TYPE_NAME_LIMIT
        assert len(str(e.value)) <= MESSAGE_LIMIT and (e.value.source is None or len(e.value.source) <= SOURCE_LIMIT)
    finally:
        fn.close()
    forged = CandidateError({"type": 5, "message": "x" * 10**6, "source": "s" * 10**6, "line": "7"})
    assert forged.type_name == "Exception" and len(str(forged)) == MESSAGE_LIMIT
    assert len(forged.source) == SOURCE_LIMIT and forged.line is None


def test_an_answer_over_the_kata_budget_is_too_slow_with_its_figures(tmp_path):
    path = kata_file(tmp_path, """
        import time
        start = time.process_time()
        while time.process_time() - start < 0.05:
            pass
        return 1.0
    """)
    fn = RemoteFunction(path, "f", QUICK, cpu_budget=0.3)
    fn.progress = lambda: 0.25
    try:
        with pytest.raises(TooSlow) as e:
            for _ in range(100):
                fn()
        assert isinstance(e.value, KataTimeout)
        text = str(e.value)
        assert re.search(r"too slow: your f\(\) took about 0\.0[3-9]\d* s of CPU a call over \d+ calls", text), text
        assert "the judge needs about" in text and "allows 0.3 s" in text
        assert fn.calls < 20
    finally:
        fn.close()


def test_peak_memory_is_the_rise_of_resident_memory_during_one_call(worker):
    small = worker("return np.zeros(10)", limits=Limits()).peak_memory({})
    big = worker("a = np.ones((2048, 2048))\nreturn float(a[0, 0])", limits=Limits()).peak_memory({})
    assert small[0].status == "returned" and small[1] < 4 * 2**20
    assert big[0].status == "returned", big[0].how
    assert big[1] > 28 * 2**20  # one 32 MiB matrix


def test_closing_leaves_no_process(worker):
    w = worker("return 1")
    assert w.call({}).value == 1
    pid = w.pid
    w.close(wait=True)
    assert not os.path.exists(f"/proc/{pid}") or open(f"/proc/{pid}/stat").read().split(") ")[1][0] in "ZX"


def test_an_in_process_time_limit_fires_again_when_its_first_alarm_is_swallowed():
    """Python ignores an exception raised in a garbage-collector callback (Hypothesis has one),
    so a single alarm could be lost and a hang go on: the alarm repeats until the block ends.
    The limit counts CPU time here (``cpu=True``, as the self-check times the project's files)."""
    import time

    from dojo.worker.loader import time_limit

    alarms = 0
    with pytest.raises(KataTimeout):
        with time_limit(0.05, cpu=True):
            start = time.process_time()
            while time.process_time() - start < 5.0:  # a hang, bounded so a broken limit fails
                try:
                    while time.process_time() - start < 5.0:
                        pass
                except KataTimeout:
                    alarms += 1
                    if alarms > 1:
                        raise
                    # the first alarm is swallowed, as a gc callback would
    assert alarms == 2


def test_a_worker_whose_judge_is_killed_mid_call_is_ended_too(tmp_path):
    """A judge can be killed while its worker runs a hanging call: ``WarmJudge`` kills its shards
    when a save makes the run stale (``dojo watch``, an interview) or on Ctrl-C, and only the
    judge measures the worker's time. The worker, in a session of its own, would then spin until
    the zygote ends (for an interview, until it ends). The zygote ends every worker of a judge
    whose connection closes."""
    import signal
    import time

    from dojo.worker.zygote_handle import Zygote

    Zygote.shared().wait_ready()  # this process's zygote: the forked judge below only connects to it
    path = kata_file(tmp_path, "while True:\n    pass")
    read, write = os.pipe()
    judge = os.fork()
    if judge == 0:  # the judge: one worker, then a call that never returns
        try:
            os.close(read)
            w = Worker(path, "f", Limits(cpu=3600.0, idle=3600.0, wall=3600.0))
            w.start()
            os.write(write, f"{w.pid}\n".encode())
            w.call({})
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read) as r:
        pid = int(r.readline())

    def spinning() -> bool:
        try:
            with open(f"/proc/{pid}/stat") as f:
                return f.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
        except OSError:
            return False

    deadline = time.monotonic() + 60
    while open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0] != "R":  # in the call
        assert time.monotonic() < deadline
        time.sleep(0.01)
    os.kill(judge, signal.SIGKILL)
    os.waitpid(judge, 0)
    deadline = time.monotonic() + 20
    while spinning():
        assert time.monotonic() < deadline, f"worker {pid} still runs after its judge was killed"
        time.sleep(0.05)


def test_an_allocation_past_the_data_limit_is_over_the_bound_in_the_kata_or_in_the_worker():
    from dojo.worker import memory
    from dojo.worker.workers import Reply
    from dojo.worker.zygote import OUT_OF_MEMORY

    assert memory._out_of_memory(Reply("raised", info={"type": "MemoryError"}))
    assert memory._out_of_memory(Reply("died", info={"end": {"exit": OUT_OF_MEMORY}}))
    assert not memory._out_of_memory(Reply("raised", info={"type": "ValueError"}))
    assert not memory._out_of_memory(Reply("died", info={"end": {"exit": 70}}))
    assert not memory._out_of_memory(Reply("died", info={"end": {"signal": 9}}))
    assert not memory._out_of_memory(Reply("returned", info={"type": "MemoryError"}))
