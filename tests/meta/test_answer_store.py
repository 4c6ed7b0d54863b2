"""The oracle's answer files can be damaged, foreign or unwritable without breaking a verdict."""

import numpy as np

from tests import answer_store


def answers():
    return {"a" * 40: (np.arange(6.0).reshape(2, 3), np.array([0.5])), "b" * 40: (np.eye(2),)}


def test_answers_round_trip_with_their_shapes(tmp_path):
    path = tmp_path / "o.npz"
    answer_store.write(path, "src", answers())
    got = answer_store.read(path, "src")
    assert got.keys() == answers().keys()
    for key, values in answers().items():
        assert all(np.array_equal(g, w) and g.shape == w.shape for g, w in zip(got[key], values))


def test_answers_of_another_oracle_source_are_not_used(tmp_path):
    path = tmp_path / "o.npz"
    answer_store.write(path, "src", answers())
    assert answer_store.read(path, "edited source") == {}


def test_an_entry_whose_values_were_changed_is_dropped_and_the_others_kept(tmp_path):
    path = tmp_path / "o.npz"
    answer_store.write(path, "src", answers())
    with np.load(path) as f:
        parts = {k: f[k] for k in f.files}
    parts["data"] = parts["data"].copy()
    parts["data"][0] += 1.0  # poison the first answer without updating its checksum
    np.savez(path, **parts)
    got = answer_store.read(path, "src")
    assert list(got) == ["b" * 40]


def test_garbage_a_folder_or_a_pickle_reads_as_no_answers(tmp_path):
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not a zip file")
    folder = tmp_path / "folder.npz"
    folder.mkdir()
    pickled = tmp_path / "pickled.npz"
    np.savez(pickled, format=np.array([{"x": 1}], dtype=object))  # loading it would need pickle
    for path in (junk, folder, pickled, tmp_path / "missing.npz"):
        assert answer_store.read(path, "src") == {}


def test_a_cache_that_cannot_be_written_is_reported_not_raised(tmp_path, capsys):
    blocker = tmp_path / "cache"
    blocker.write_text("a file where the cache folder should be")
    answer_store.write(blocker / "o.npz", "src", answers())
    assert "cannot write the oracle cache" in capsys.readouterr().err
    target = tmp_path / "o.npz"
    target.mkdir()  # a folder where the file should be
    answer_store.write(target, "src", answers())
    assert "cannot write the oracle cache" in capsys.readouterr().err
    assert not [p for p in tmp_path.iterdir() if ".tmp" in p.name]  # no temporary file left


def test_a_local_entry_forged_without_the_key_is_dropped(tmp_path):
    """The local cache's checksums are keyed: an entry written with the unkeyed checksum (what
    a candidate's file could forge from this source alone) is not trusted."""
    secret = answer_store.local_secret(tmp_path)
    assert secret is not None and len(secret) == 32
    assert answer_store.local_secret(tmp_path) == secret  # made once, then read back
    path = tmp_path / "o.npz"
    answer_store.write(path, "src", answers())  # unkeyed: forged
    assert answer_store.read(path, "src", secret) == {}
    answer_store.write(path, "src", answers(), secret)  # keyed: the judge's own
    assert answer_store.read(path, "src", secret).keys() == answers().keys()
    assert answer_store.read(path, "src", answer_store.local_secret(tmp_path / "other")) == {}


def test_a_cache_file_larger_than_the_bound_is_not_loaded(tmp_path, capsys):
    path = tmp_path / "o.npz"
    answer_store.write(path, "src", answers())
    size = path.stat().st_size
    assert answer_store.read(path, "src", max_bytes=size).keys() == answers().keys()
    assert answer_store.read(path, "src", max_bytes=size - 1) == {}
    assert "not loaded" in capsys.readouterr().err
