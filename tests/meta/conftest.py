import pytest

from dojo.text import locale


@pytest.fixture(autouse=True)
def in_english(monkeypatch):
    """The project's own suite runs in English (whatever the machine's locale or a saved
    `dojo lang`), unless a test asks for Chinese."""
    monkeypatch.setenv("DOJO_LANG", "en")
    monkeypatch.setattr(locale, "LANGUAGE", "en")


#: The throwaway kata's files (tests/meta/test_new_kata.py copies them into a temporary tree):
#: templates here, never collected.
collect_ignore = ["throwaway"]
