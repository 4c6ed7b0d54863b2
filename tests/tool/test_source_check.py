"""The judge reads a kata file's source as Python's import does, before running any of it
(``dojo.worker.loader.check_source``): a fourth hostile round (stop 51) found a right answer
saved in Latin-1 failed as a "syntax error", and a file the parser gives up on ending the judge
with its own traceback."""

from __future__ import annotations

import pytest

from dojo.worker.answers import visible
from dojo.worker.loader import KataImportError, check_source

RIGHT = "import numpy as np\n\n\ndef softmax(x, axis=-1):\n    {name} = np.exp(x - np.max(x, axis=axis, keepdims=True))\n    return {name} / {name}.sum(axis=axis, keepdims=True)\n"


def test_a_coding_line_is_honoured(tmp_path):
    """Latin-1 bytes under a PEP 263 coding line: Python imports the file, and so must the check."""
    path = tmp_path / "softmax.py"
    path.write_bytes(b"# -*- coding: latin-1 -*-\n" + RIGHT.format(name="\u00e9chelle").encode("latin-1"))
    check_source(path)  # raises nothing
    namespace: dict = {}
    exec(compile(path.read_bytes(), str(path), "exec"), namespace)  # what the import does with it
    assert namespace["softmax"]([0.0, 0.0]).tolist() == [0.5, 0.5]


def test_the_same_bytes_without_their_coding_line_are_a_syntax_error(tmp_path):
    path = tmp_path / "softmax.py"
    path.write_bytes(RIGHT.format(name="\u00e9chelle").encode("latin-1"))
    with pytest.raises(KataImportError, match="syntax error"):
        check_source(path)


def test_a_file_the_parser_gives_up_on_cannot_be_imported(tmp_path):
    path = tmp_path / "softmax.py"
    path.write_text(RIGHT.format(name="e") + "DEEP = " + "-" * 10_000 + "1\n")
    with pytest.raises(KataImportError, match="Python's parser gives up on it"):
        check_source(path)


def test_a_null_byte_is_a_syntax_error(tmp_path):
    path = tmp_path / "softmax.py"
    path.write_bytes(RIGHT.format(name="e").encode() + b"# \x00\n")
    with pytest.raises(KataImportError, match="syntax error"):
        check_source(path)


def test_a_lone_surrogate_the_candidate_wrote_is_spelled_out():
    """A screen cannot encode U+D800 alone: `dojo test` ended "internal error" printing it."""
    shown = visible("not finished \ud800 yet \x1b[31m")
    assert shown == "not finished \\ud800 yet \\x1b[31m"
    shown.encode("utf-8")  # raises nothing
