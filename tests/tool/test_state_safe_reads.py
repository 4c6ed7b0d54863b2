"""No state file can hang or crash the tool: each is read without blocking, up to a size bound,
with a depth bound (dojo/text/safe_read.py).

A FIFO, a link to ``/dev/zero`` and a JSON document nested 100 000 lists deep are each put where
``state.json``, ``history.jsonl`` or ``interview.json`` belongs, and every command that reads
that file must end promptly (a subprocess timeout, never a hang of the suite) with the warning
a corrupt file gets, the exit code it gets, no traceback, and the thing moved aside (never
opened for writing, never deleted). ``.dojo/language`` is ignored when it cannot be read
(docs/state.md): there the command must only end promptly, in English.
"""

from __future__ import annotations

import os

import pytest

pytestmark = pytest.mark.contributors

#: Seconds any one command may take (a hang would otherwise stop the suite).
PROMPT = 60
DEEP = "[" * 100_000 + "]" * 100_000

#: the commands that read each file
READERS = {
    "state.json": [(), ("test", "softmax"), ("drill",)],
    "history.jsonl": [(), ("drill",), ("history",)],
    "interview.json": [(), ("interview", "--resume")],
}
CASES = [(name, args) for name, commands in READERS.items() for args in commands]


def make(path, how: str) -> None:
    if how == "fifo":
        os.mkfifo(path)
    elif how == "dev-zero":
        path.symlink_to("/dev/zero")
    elif how == "deep":
        path.write_text(DEEP)
    elif how == "truncated":  # the corrupt file of tests/tool/test_state_files.py
        path.write_text('{"version": 1, "kat')


def reset(state) -> None:
    for p in list(state.iterdir()) if state.exists() else []:
        if p.is_dir() and not p.is_symlink():
            import shutil

            shutil.rmtree(p)
        else:
            p.unlink()


@pytest.mark.parametrize("how", ["fifo", "dev-zero", "deep"])
@pytest.mark.parametrize("name,args", CASES, ids=[f"{n}-{'+'.join(a) or 'bare'}" for n, a in CASES])
def test_a_state_file_that_is_no_file_ends_promptly_with_the_corrupt_files_warning(sandbox, name, args, how):
    sandbox.state.mkdir()
    path = sandbox.state / name
    make(path, "truncated")
    corrupt = sandbox.run(*args, timeout=PROMPT)  # what a corrupt file gets: the same here
    reset(sandbox.state)
    make(path, how)
    r = sandbox.run(*args, timeout=PROMPT)
    assert r.code == corrupt.code, (corrupt.code, r.out + r.err)
    assert "Traceback" not in r.err and "internal error" not in r.err, r.err[-3000:]
    assert f"{path} could not be read" in r.err and "moved it to" in r.err, r.err[-3000:]
    aside = [p for p in sandbox.state.iterdir() if p.name.startswith(f"{name}.corrupt-")]
    assert len(aside) == 1, list(sandbox.state.iterdir())
    if how == "dev-zero":
        assert os.readlink(aside[0]) == "/dev/zero"  # the link was moved, nothing written through it
    elif how == "fifo":
        import stat

        assert stat.S_ISFIFO(os.lstat(aside[0]).st_mode)
    else:
        assert aside[0].read_text() == DEEP  # never lost


@pytest.mark.parametrize("how", ["fifo", "dev-zero", "deep"])
def test_a_language_file_that_is_no_file_is_ignored_promptly(sandbox, how):
    sandbox.state.mkdir()
    make(sandbox.state / "language", how)
    r = sandbox.run("list", timeout=PROMPT, env={"DOJO_LANG": None, "LANG": "C.UTF-8", "LC_ALL": None,
                                                 "LC_MESSAGES": None})
    assert r.code == 0, r.out + r.err
    assert "Traceback" not in r.err and "not started" in r.out


def test_the_example_database_skips_what_is_no_file(tmp_path):
    """Hypothesis's examples live in ``.dojo/examples/`` (tests/seeding.py): a FIFO there hung
    every run of the kata, a right answer's too (a fresh hostile round, stop 48). A FIFO, a link
    to /dev/zero and a file over the size bound in a key's folder are skipped; the real example
    is still read, promptly."""
    import threading

    from tests.seeding import SafeDirectoryDatabase

    db = SafeDirectoryDatabase(str(tmp_path))
    db.save(b"key", b"an example")
    folder = db._key_path(b"key")  # Hypothesis's layout (private): the key's own folder
    os.mkfifo(folder / "a-fifo")
    (folder / "a-device").symlink_to("/dev/zero")
    (folder / "too-large").write_bytes(b"x" * (SafeDirectoryDatabase.LIMIT + 1))
    found = []
    reader = threading.Thread(target=lambda: found.extend(db.fetch(b"key")), daemon=True)
    reader.start()
    reader.join(PROMPT)
    assert not reader.is_alive(), "fetch blocked"
    assert found == [b"an example"]


def test_the_example_database_reads_a_bounded_number_of_examples(tmp_path):
    """A key's folder with a thousand hard links to one example (a second hostile round put a
    million there, and every property read them all before its first example): at most
    ``MOST`` are read."""
    from tests.seeding import SafeDirectoryDatabase

    db = SafeDirectoryDatabase(str(tmp_path))
    db.save(b"key", b"an example")
    folder = db._key_path(b"key")
    first = next(folder.iterdir())
    for i in range(1000):
        os.link(first, folder / f"link{i}")
    assert len(list(db.fetch(b"key"))) == SafeDirectoryDatabase.MOST


@pytest.mark.parametrize("how", ["fifo", "dev-zero", "folder"])
@pytest.mark.parametrize("args", [("test", "softmax"), (), ("check",)], ids=["test", "bare", "check"])
def test_a_kata_file_that_is_no_file_is_said_as_it_is_promptly(sandbox, how, args):
    """A FIFO in the answer's place hung ``dojo test`` (the file's hash was read blocking):
    every command that reads katas/ ends promptly, and the judge says what the file is."""
    path = sandbox.root / "katas" / "softmax.py"
    path.unlink()
    if how == "folder":
        path.mkdir()
    else:
        make(path, how)
    r = sandbox.run(*args, timeout=PROMPT)
    assert "Traceback" not in r.err and "internal error" not in r.err, r.err[-3000:]
    if args:  # judged: said as it is, never "does not exist"
        assert r.code == 1, r.out + r.err
        said = "is there, but it is not a regular file" if args[0] == "test" else "softmax… cannot import"
        assert said in r.out, r.out
    else:
        assert r.code == 0 and "softmax" in r.out, r.out + r.err
