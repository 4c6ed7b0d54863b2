"""A kata's untouched stub, derived from its reference solution.

The stub is the solution's imports, signature and docstring with a body that raises
``NotImplementedError``. Deriving it (rather than keeping a second copy) means the contract a
candidate reads can never drift from the one the model answer implements; the self-check
verifies that katas/ in the repository still holds exactly these stubs.
"""

from __future__ import annotations

import ast
from pathlib import Path

BODY = '    raise NotImplementedError("write your solution here")\n'


def stub_source(solution: Path, function: str) -> str:
    source = solution.read_text(encoding="utf-8")
    tree = ast.parse(source)
    lines = source.splitlines()
    fn = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == function)
    imports = [
        "\n".join(lines[n.lineno - 1 : n.end_lineno])
        for n in tree.body
        if isinstance(n, (ast.Import, ast.ImportFrom))
        and all(a.name.split(".")[0] == "numpy" for a in n.names)
        or isinstance(n, ast.ImportFrom) and (n.module or "").split(".")[0] == "numpy"
    ]
    doc_end = fn.body[0].end_lineno
    head = "\n".join(lines[fn.lineno - 1 : doc_end])
    return "\n".join(imports) + "\n\n\n" + head + "\n" + BODY
