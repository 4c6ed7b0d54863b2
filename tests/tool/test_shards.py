"""The tool's processes share a kata's properties by claiming them (tests/plugin/shards.py):
every property is run by exactly one process and reported once; a property claimed and never
reported makes the verdict incomplete, never passed; without a report, every N-th property.

Each judge here is a real ``pytest`` process with the tool's own arguments
(``dojo.judge.runner.pytest_args``), judging the reference answer of softmax."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from dojo.catalogue import registry
from dojo.judge.runner import child_environ, pytest_args, read_verdict
from dojo.judge.verdict import properties_of
from tests.tool.harness import REPO

KATA = registry.get("softmax")
SOLUTIONS = REPO / "solutions"


def _judge(folder: Path, shard: int, n: int = 2) -> subprocess.Popen:
    from dojo.catalogue.env import Env

    env = Env.from_os()
    args = pytest_args(env, KATA, SOLUTIONS, folder / f"verdict{shard}.json", f"{shard}/{n}")
    return subprocess.Popen([sys.executable, "-m", "pytest", *args], cwd=REPO, env=child_environ(run_seed=7),
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)


def _finish(proc: subprocess.Popen) -> str:
    out, _ = proc.communicate(timeout=600)
    return out.decode(errors="replace")


def _ran(report: Path) -> list[str]:
    return [r["property"] for r in json.loads(report.read_text())["records"]]


def test_two_processes_at_once_run_every_property_exactly_once(tmp_path):
    procs = [_judge(tmp_path, k) for k in range(2)]
    outputs = [_finish(p) for p in procs]
    ran = [_ran(tmp_path / f"verdict{k}.json") for k in range(2)]
    every = [name for name, _ in properties_of(KATA.test_path)]
    assert sorted(ran[0] + ran[1]) == sorted(every), outputs
    verdict = read_verdict(KATA, [tmp_path / f"verdict{k}.json" for k in range(2)], 1.0)
    assert (verdict.state, verdict.passed, verdict.total) == ("passed", len(every), len(every))


def test_a_process_that_finds_every_property_claimed_runs_none(tmp_path):
    """One after the other: the first claims and runs all of them, the second none (no timing:
    the order is fixed), and the verdict of both reports is the whole kata."""
    _finish(_judge(tmp_path, 0))
    out = _finish(_judge(tmp_path, 1))
    every = [name for name, _ in properties_of(KATA.test_path)]
    assert sorted(_ran(tmp_path / "verdict0.json")) == sorted(every)
    assert _ran(tmp_path / "verdict1.json") == [], out
    verdict = read_verdict(KATA, [tmp_path / "verdict0.json", tmp_path / "verdict1.json"], 1.0)
    assert (verdict.state, verdict.total) == ("passed", len(every))


def test_a_property_claimed_and_never_reported_makes_the_verdict_incomplete(tmp_path):
    """As if the other process claimed the third property and died before its report."""
    (tmp_path / "claim-2").touch()
    _finish(_judge(tmp_path, 0))
    every = [name for name, _ in properties_of(KATA.test_path)]
    assert len(_ran(tmp_path / "verdict0.json")) == len(every) - 1
    (tmp_path / "verdict1.json").write_text(json.dumps({"expected": {}, "records": []}))
    verdict = read_verdict(KATA, [tmp_path / "verdict0.json", tmp_path / "verdict1.json"], 1.0)
    assert verdict.state == "incomplete"
    assert (verdict.passed, verdict.total) == (len(every) - 1, len(every))


def test_without_a_report_a_shard_is_every_nth_property():
    """``pytest --dojo-shard 1/2`` typed by hand: the properties at odd places, as before."""
    every = [name for name, _ in properties_of(KATA.test_path)]
    out = subprocess.run([sys.executable, "-m", "pytest", str(KATA.test_path), "--impl=solutions",
                          "--dojo-shard=1/2", "-q", "-p", "no:cacheprovider", "--collect-only"],
                         cwd=REPO, capture_output=True, text=True, timeout=300).stdout
    collected = [line.split("::")[1] for line in out.splitlines() if "::" in line]
    assert collected == every[1::2], out
