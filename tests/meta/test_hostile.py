"""Code that tries to end, hang, flood or fool the judge gets a verdict that names what it did.

Each file in tests/meta/hostile/ is a kata answer with two constants: ``KATA`` and ``EXPECT``,
words its verdict must contain (``PASSES = True`` marks a correct answer that must pass in
spite of what it does; ``DEADLINE = 5`` marks a file that hangs past every per-call limit, so
the whole-run deadline is shortened to keep the test quick). A file that does not hang keeps
the judge's default deadline: a busy machine must not turn it into a hang. Each goes through plain ``pytest`` and through ``dojo test``:
never a pass (unless PASSES), never a hang past the whole-run deadline, no process left
behind, and a message that names the cause. docs/hostile.md says how each is contained.
"""

import ast
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.tool.harness import REPO, Sandbox

pytestmark = pytest.mark.contributors  # about two minutes: the contributors' suite

HOSTILE = sorted((Path(__file__).parent / "hostile").glob("*.py"))


def constants(path: Path) -> dict:
    tree = ast.parse(path.read_text())
    return {
        target.id: ast.literal_eval(node.value)
        for node in tree.body if isinstance(node, ast.Assign)
        for target in node.targets if isinstance(target, ast.Name) and target.id.isupper()
    }


def processes_mentioning(text: str) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) != os.getpid():
            try:
                cmdline = Path(f"/proc/{entry}/cmdline").read_bytes().decode(errors="replace")
            except OSError:
                continue
            if text in cmdline:
                found.append(int(entry))
    return found


def lingering(text: str, within: float = 10.0) -> list[int]:
    """Processes still mentioning ``text`` once a SIGKILLed judge's children had ``within``
    seconds to be reaped (polled, so a quick exit costs nothing and a busy machine gets time)."""
    end = time.monotonic() + within
    while (found := processes_mentioning(text)) and time.monotonic() < end:
        time.sleep(0.05)
    return found


@pytest.mark.parametrize("path", HOSTILE, ids=[p.stem for p in HOSTILE])
def test_plain_pytest_never_passes_hangs_or_leaves_processes(path, tmp_path):
    c = constants(path)
    impl = tmp_path / "impl"
    impl.mkdir()
    (impl / f"{c['KATA']}.py").write_text(path.read_text())
    env = dict(os.environ, DOJO_STATE_DIR=str(tmp_path / "state"))
    env.pop("CI", None)
    env.pop("DOJO_KATA_DEADLINE", None)
    if "DEADLINE" in c:
        env["DOJO_KATA_DEADLINE"] = str(c["DEADLINE"])
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", f"tests/test_{c['KATA']}.py", f"--impl={impl}", "-q",
         "-p", "no:cacheprovider"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL,
    )
    out = proc.stdout + proc.stderr
    if c.get("PASSES"):
        assert proc.returncode == 0, out[-3000:]
    else:
        assert proc.returncode != 0, f"plain pytest exited 0 for {path.name}:\n{out[-3000:]}"
        assert c["EXPECT"] in out, f"{path.name}: {c['EXPECT']!r} not in the output:\n{out[-3000:]}"
    assert len(out) < 2_000_000, "the candidate's output was not capped"
    assert not lingering(str(impl)), "processes were left behind"


@pytest.mark.parametrize("path", HOSTILE, ids=[p.stem for p in HOSTILE])
def test_dojo_test_never_passes_hangs_or_leaves_processes(path, tmp_path):
    c = constants(path)
    sandbox = Sandbox(tmp_path)
    sandbox.write_kata(c["KATA"], path)
    env = sandbox.environ()
    env.pop("DOJO_KATA_DEADLINE", None)
    if "DEADLINE" in c:
        env["DOJO_KATA_DEADLINE"] = str(c["DEADLINE"])
    proc = subprocess.run(sandbox.command("test", c["KATA"]), cwd=sandbox.root, env=env,
                          capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    out = proc.stdout + proc.stderr
    if c.get("PASSES"):
        assert proc.returncode == 0 and "properties pass" in out, out[-3000:]
    else:
        assert proc.returncode == 1, f"dojo test exited {proc.returncode} for {path.name}:\n{out[-3000:]}"
        assert "All " not in out or " properties pass." not in out.split("All ")[-1][:40], out[-3000:]
        assert c["EXPECT"] in out, f"{path.name}: {c['EXPECT']!r} not in the verdict:\n{out[-3000:]}"
        assert "not your fault" not in out  # the candidate's doing, never the tool's
    assert not lingering(str(sandbox.root)), "processes were left behind"
