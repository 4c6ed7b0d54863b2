"""A crash on an input the contract allows is a crash, whatever NumPy calls it: an answer that
runs past its kv heads and gets a ValueError from NumPy is named as the known bug that runs past
them and gets an IndexError (before, the two errors told them apart and nothing was named)."""

from pathlib import Path

from dojo.judge.diagnosis import diagnose
from dojo.worker.loader import load_kata

KATA = "grouped_query_attention"
KNOWN = Path(__file__).resolve().parents[1] / "katas" / KATA / "wrong" / "kv_head_index_by_num_kv_heads.py"
#: The known file gathers the kv heads with fancy indexing (an IndexError past the last one); this
#: variant stacks them from a list, and a head past the last one is an empty slice: NumPy's
#: ValueError ("all input arrays must have the same shape").
GATHER = "        k, v = k[kv_of], v[kv_of]  # (h, n, d_k), (h, n, d_v)\n"
STACKED = ("        k = np.stack([k[c] if c < h_kv else k[h_kv:h_kv, 0] for c in kv_of])\n"
           "        v = np.stack([v[c] if c < h_kv else v[h_kv:h_kv, 0] for c in kv_of])\n")


def _variant(tmp_path: Path, source: str):
    path = tmp_path / f"{KATA}.py"
    path.write_text(source)
    return load_kata(path, KATA)


def test_a_valueerror_where_the_known_bug_raises_indexerror_is_named_as_it(tmp_path):
    source = KNOWN.read_text()
    assert source.count(GATHER) == 1, "the known file changed: update this test's substitution"
    found = diagnose(KATA, KATA, _variant(tmp_path, source.replace(GATHER, STACKED)), [])
    assert found is not None and found.stems == ("kv_head_index_by_num_kv_heads",), found


def test_a_crash_alone_is_no_evidence(tmp_path):
    """The variant with its bug taken out (the right kv head when it exists) crashes nowhere and
    is right: nothing is named. And one that crashes on every valid input names nothing either:
    a known file must also return the same wrong values where both return."""
    source = KNOWN.read_text()
    right = source.replace(GATHER, STACKED).replace("np.arange(h) // h_kv", "np.arange(h) // (h // h_kv)")
    assert diagnose(KATA, KATA, _variant(tmp_path, right), []) is None

    def always_crashes(**kwargs):
        raise IndexError("index 3 is out of bounds for axis 0 with size 2")

    assert diagnose(KATA, KATA, always_crashes, []) is None
