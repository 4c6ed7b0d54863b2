import pytest

from tests.tool.harness import REPO, Sandbox


@pytest.fixture
def sandbox(tmp_path):
    return Sandbox(tmp_path)


@pytest.fixture
def wrong():
    """Path of a known-wrong implementation: wrong('softmax', 'global_max_shift')."""
    return lambda kata, name: REPO / "tests" / "meta" / "wrong" / kata / f"{name}.py"


@pytest.fixture
def solution():
    return lambda kata: REPO / "solutions" / f"{kata}.py"
