import os
import shutil
import tempfile
from pathlib import Path

import pytest

from dojo.text import locale

from tests.tool.harness import REPO, Sandbox


@pytest.fixture
def sandbox(tmp_path):
    return Sandbox(tmp_path)


@pytest.fixture
def wrong():
    """Path of a known-wrong implementation: wrong('softmax', 'global_max_shift')."""
    return lambda kata, name: REPO / "tests" / "katas" / kata / "wrong" / f"{name}.py"


@pytest.fixture
def solution():
    return lambda kata: REPO / "solutions" / f"{kata}.py"


@pytest.fixture(autouse=True)
def in_english(monkeypatch):
    """The project's own suite runs in English (whatever the machine's locale or a saved
    `dojo lang`), unless a test asks for Chinese."""
    monkeypatch.setenv("DOJO_LANG", "en")
    monkeypatch.setattr(locale, "LANGUAGE", "en")


@pytest.fixture
def box():
    """A sandbox in a short folder: the attempt paths an interview prints are as long as a
    user's (a path under pytest's tmp_path alone is longer than 80 columns)."""
    folder = Path(tempfile.mkdtemp(prefix="dojo-", dir="/tmp" if os.path.isdir("/tmp") else None))
    try:
        sandbox = Sandbox(folder)
        sandbox.state.mkdir()
        cache = REPO / ".dojo" / "cache"
        if cache.is_dir():
            shutil.copytree(cache, sandbox.state / "cache")
        yield sandbox
    finally:
        shutil.rmtree(folder, ignore_errors=True)
