"""The untouched stub's verdict is given at once (dojo/judge/untouched.py): it must be the very
verdict the judge gives the stub, in every language the stub is written in, and a stub with one
byte changed must go to the judge."""

from __future__ import annotations

import dataclasses

import pytest

from dojo.catalogue import registry
from dojo.catalogue.env import Env
from dojo.catalogue.stubs import stub_source
from dojo.judge import runner
from dojo.judge.untouched import stub_verdict
from tests.tool.harness import REPO

KATAS = [registry.BY_MODULE[m] for m in ("softmax", "beam_search")]


def _judged(tmp_path, kata, text: str):
    impl = tmp_path / "impl"
    impl.mkdir(exist_ok=True)
    (impl / f"{kata.module}.py").write_text(text, encoding="utf-8")
    env = Env(root=REPO, state_dir=tmp_path / "state")
    return env, impl


def _kept(verdict) -> dict:
    """What a screen, the state file or results.json can read of a verdict, the run's own
    figures (seconds, seed, the worker's sandbox) left out."""
    data = dataclasses.asdict(verdict)
    for key in ("seconds", "seed", "sandbox"):
        data.pop(key)
    for record in data["records"]:
        record.pop("seconds")  # 0.0 here, the judge's 0.001 on a busy machine
    return data


@pytest.mark.parametrize("kata", KATAS, ids=[k.module for k in KATAS])
@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_stubs_verdict_is_the_judges(tmp_path, kata, language):
    env, impl = _judged(tmp_path, kata, stub_source(kata.solution_path, kata.function, language))
    quick = stub_verdict(env, kata, impl)
    assert quick is not None and quick.state == "not-started"
    judged = runner.cold_judge(env, kata, impl)  # the judge itself, skipping the shortcut
    assert _kept(quick) == _kept(judged)
    assert runner.judge(env, kata, impl) is not None


@pytest.mark.parametrize("change", [
    lambda s: s + "\n",
    lambda s: s.replace("raise NotImplementedError", "raise  NotImplementedError"),
    lambda s: "import os\n" + s,
], ids=["newline-added", "body-spaced", "import-added"])
def test_a_changed_stub_goes_to_the_judge(tmp_path, change):
    kata = registry.BY_MODULE["softmax"]
    env, impl = _judged(tmp_path, kata, change(stub_source(kata.solution_path, kata.function)))
    assert stub_verdict(env, kata, impl) is None
