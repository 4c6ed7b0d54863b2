"""Drive the real ``dojo`` entry point as a subprocess, in a sandbox copy of the repository.

The sandbox holds solutions/, tests/ and conftest.py copied from this checkout, katas/ with
the untouched stubs (derived from solutions/, as ``dojo reset`` writes them: never the files
you practise in), a state folder of its own, and a fake clock file: tests move time by
writing to it.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def stub(module: str) -> str:
    """The untouched stub of ``module``: what a fresh clone's katas/ holds."""
    from dojo.catalogue import registry
    from dojo.catalogue.stubs import stub_source

    kata = registry.get(module)
    return stub_source(kata.solution_path, kata.function)


@dataclass
class Result:
    code: int
    out: str
    err: str


class Sandbox:
    def __init__(self, tmp: Path):
        self.root = tmp / "repo"
        self.root.mkdir()
        from dojo.catalogue import registry

        shutil.copytree(REPO / "solutions", self.root / "solutions")
        (self.root / "katas").mkdir()
        for kata in registry.KATAS:
            (self.root / "katas" / f"{kata.module}.py").write_text(stub(kata.module))
        shutil.copytree(
            REPO / "tests", self.root / "tests",
            ignore=shutil.ignore_patterns("meta", "tool", "katas", "__pycache__"),
        )
        shutil.copy(REPO / "conftest.py", self.root / "conftest.py")
        shutil.copy(REPO / "pyproject.toml", self.root / "pyproject.toml")
        self.state = tmp / "state"
        self.clock_file = tmp / "clock"
        self.set_clock(0.0)

    def set_clock(self, seconds: float) -> None:
        tmp = self.clock_file.with_suffix(".tmp")
        tmp.write_text(repr(float(seconds)))
        os.replace(tmp, self.clock_file)

    def kata(self, module: str) -> Path:
        return self.root / "katas" / f"{module}.py"

    def shown(self, path: Path) -> str:
        """``path`` as the tool shows it to a command run here: from the cwd (the repository)
        when it is inside it, else whole (``dojo.commands.cli.common.shown``)."""
        try:
            return str(Path(path).relative_to(self.root))
        except ValueError:
            return str(path)

    def write_kata(self, module: str, source: str | Path) -> None:
        text = source.read_text() if isinstance(source, Path) else source
        self.kata(module).write_text(text)

    def worked_on(self, module: str, note: str = "worked on") -> str:
        """Put a file of one's own into katas/ (the stub and a comment ``note``) and return its
        sha256: the hash a verdict about exactly this file keeps in state.json."""
        data = (stub(module) + f"# {note}\n").encode()
        self.kata(module).write_bytes(data)
        return hashlib.sha256(data).hexdigest()

    def environ(self) -> dict:
        from tests.seeding import without_ci

        env = without_ci(os.environ)  # a user's machine: the practice profile, fresh seeds
        env.update(
            DOJO_ROOT=str(self.root),
            DOJO_STATE_DIR=str(self.state),
            DOJO_FAKE_CLOCK=str(self.clock_file),
            NO_COLOR="1",
            DOJO_LANG="en",  # the project's own suite runs in English; a test that wants Chinese says so
            PYTHONPATH=str(REPO),  # the dojo package under test, even when not installed
            # the sandboxes share one warm judge (their judges are copies): it ends a minute
            # after the suite's last verdict, not a quarter of an hour
            DOJO_JUDGE_IDLE="60",
        )
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        # pytest-xdist's workers inherit COLUMNS=80 and LINES=24 from execnet: the tool would
        # fit its output to them. Tests that want a width say so.
        env.pop("COLUMNS", None)
        env.pop("LINES", None)
        return env

    def command(self, *args: str) -> list[str]:
        return [sys.executable, "-m", "dojo", *args]

    def run(self, *args: str, input: str | None = None, timeout: float = 120, env: dict | None = None) -> Result:
        """Run ``dojo ARGS``; ``env`` adds to (or, with None values, removes from) its environment."""
        environ = self.environ()
        for key, value in (env or {}).items():
            if value is None:
                environ.pop(key, None)
            else:
                environ[key] = value
        proc = subprocess.run(
            self.command(*args), cwd=self.root, env=environ, input=input,
            capture_output=True, text=True, timeout=timeout,
            stdin=None if input is not None else subprocess.DEVNULL,
        )
        return Result(proc.returncode, proc.stdout, proc.stderr)

    def popen(self, *args: str) -> subprocess.Popen:
        return subprocess.Popen(
            self.command(*args), cwd=self.root, env=self.environ(),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            bufsize=1,
        )
