"""An interview's judge run follows the file (a save while it runs restarts it on the new content,
``dojo.commands.interview.judging``), but never for ever: a deleted attempt file, a save after the
deadline or a signal waiting to be answered ends the following. Before, a deleted file restarted
the run without end ("saved again: checking the new version…" thousands of times) and the
interview never read its hang-up: a notebook's interview child outlived its kernel, spinning."""

import signal
from pathlib import Path
from types import SimpleNamespace

import pytest

from dojo.catalogue import registry
from dojo.catalogue.env import Env
from dojo.commands.interview.attempt import sha
from dojo.commands.interview.judging import Judging
from dojo.judge.verdict import Verdict

RUNS = 20  # a judge asked this many times is restarting without end: fail instead of hanging


class FakeJudge:
    """Each run asks ``stale()`` once, as the warm judge does while it waits: stale means None."""

    def __init__(self, on_run=None):
        self.runs = 0
        self.on_run = on_run

    def judge(self, kata, folder, stale=None):
        self.runs += 1
        assert self.runs <= RUNS, "the judge run restarts without end"
        if self.on_run is not None:
            self.on_run(self.runs)
        if stale is not None and stale():
            return None
        return Verdict(kata.module, "failing", passed=3, total=13)


def interview(tmp_path: Path, judge: FakeJudge, elapsed: float = 10.0):
    path = tmp_path / "softmax.py"
    path.write_text("def softmax(x, axis=-1):\n    return x\n")
    said = []
    problem = SimpleNamespace(seen=sha(path.read_bytes()), judged=None, verdict=None, judge_runs=0, limit_s=600.0)
    a = SimpleNamespace(problem=problem, path=path, folder=tmp_path, kata=registry.get("softmax"),
                        elapsed=lambda: elapsed, observe=lambda: False)
    env = Env.from_os()
    env.color = False
    iv = SimpleNamespace(env=env, say=said.append, save=lambda: None, screen=SimpleNamespace(clear=lambda: None),
                         session=SimpleNamespace(coach=False), signals=SimpleNamespace(got=None), scripted=True)
    return Judging(iv, judge), a, iv, said


def test_a_deleted_attempt_file_ends_the_run_instead_of_restarting_it_for_ever(tmp_path):
    judge = FakeJudge()
    judging, a, _, said = interview(tmp_path, judge)
    judge.on_run = lambda n: a.path.unlink(missing_ok=True)
    verdict = judging.check(a)
    assert verdict["state"] == "failing" and judge.runs == 1
    assert a.problem.judged is None  # the file is gone: nothing cached for the final grade


def test_a_save_after_the_deadline_does_not_restart_the_run(tmp_path):
    judge = FakeJudge()
    judging, a, _, _ = interview(tmp_path, judge, elapsed=601.0)
    judge.on_run = lambda n: a.path.write_text(f"# a late save {n}\n")
    assert judging.check(a)["state"] == "failing" and judge.runs == 1


@pytest.mark.parametrize("got", [signal.SIGHUP, signal.SIGINT])
def test_a_signal_waiting_ends_the_following_so_the_interview_can_answer_it(tmp_path, got):
    judge = FakeJudge()
    judging, a, iv, _ = interview(tmp_path, judge)

    def saves_and_is_signalled(n):
        a.path.write_text(f"# save {n}\n")
        if n == 3:
            iv.signals.got = got
    judge.on_run = saves_and_is_signalled
    assert judging.check(a)["state"] == "failing" and judge.runs == 3


def test_a_save_while_judging_still_restarts_the_run_on_the_new_content(tmp_path):
    judge = FakeJudge()
    judging, a, _, said = interview(tmp_path, judge)
    seen = []

    def observe():
        data = a.path.read_bytes()
        a.problem.seen = sha(data)
        seen.append(data)
        return True
    a.observe = observe
    judge.on_run = lambda n: a.path.write_text("# saved again\n") if n == 1 else None
    assert judging.check(a)["state"] == "failing" and judge.runs == 2
    assert seen == [b"# saved again\n"] and a.problem.judged == sha(b"# saved again\n")


class StoppedJudge(FakeJudge):
    """A run the judge could not finish (its own fault, or a file that broke it): the records it
    has hold property titles and a failing input, which an interview keeps back."""

    def __init__(self, state: str, total: int):
        super().__init__()
        self.state, self.total = state, total

    def judge(self, kata, folder, stale=None):
        self.runs += 1
        from dojo.judge.verdict import normalise

        record = normalise({"kata": "softmax", "id": "test_sums_to_one", "state": "failing",
                            "title": "Every slice along `axis` has entries in [0, 1] that sum to 1",
                            "message": {"id": "text", "params": {"text": "softmax entries must lie in [0, 1]; x=array([[10000.054]])"}}})
        return Verdict(kata.module, self.state, passed=9 if self.total else 0, total=self.total, records=[record],
                       problem={"id": "verdict.judge-timeout", "params": {"seconds": 60}})


@pytest.mark.parametrize("state,total", [("incomplete", 14), ("error", 14), ("timed-out", 0), ("error", 0)])
def test_a_run_the_judge_did_not_finish_shows_its_state_and_count_not_its_properties(tmp_path, state, total):
    """Stop 53's hostile round made the judge stop part-way (a generator returned for bad input):
    the interview then showed the whole verdict, every property title and the hidden failing input."""
    judging, a, _, said = interview(tmp_path, StoppedJudge(state, total))
    judging.check(a)
    shown = "\n".join(str(s) for s in said)
    assert "sum to 1" not in shown and "10000.054" not in shown, shown
    assert ("9 of 14 properties pass" in shown) == bool(total), shown
