"""The verdict on one kata file, as data: what every screen renders and every file stores.

The judge (``conftest.py``) writes one record per property into its JSON report; ``dojo.judge.runner``
reads the records of every shard into a ``Verdict``. The terminal (``dojo.screens.render``), the
interview and loop reports, the history and ``dojo test --json`` all render this object; none
reads text back. Messages are ids with parameters (``dojo.text.messages``).

A property record (``Property``):

- ``id``: the property's stable id, its test function's name (``test_rejects_nan``): it does not
  change when its title is reworded. ``title``: the first line of its docstring.
- ``status``: ``pass``, ``fail`` (the answer broke the property), ``error`` (the answer raised,
  escaped, or the judge failed), ``timeout`` (a call hung or the kata was too slow),
  ``skipped`` (not run because an earlier property hung), ``incomplete`` (the run ended before
  it finished).
- ``message``, ``hint``: messages; ``calls``: the shrunk input, one mapping of argument names to
  values per call (past two calls, the first and the last; ``call_count`` says how many), as data (arrays as ``dojo.text.messages.array_param``); ``inputs_label``: which
  input it is (``input.shrunk``, ``input.hung-on`` …); ``example``: Hypothesis's own text of the
  input when the calls were not recorded.
- ``diagnosis``: the catalogue id of the known bug it behaves like (``masked_attention/mask_inverted``)
  and ``behaves_like`` the stems; ``unchecked``: the names of the compare battery's error cases
  the answer does not raise ValueError for, when the known bug is a value bug; ``seconds``; ``output``: what the candidate's code printed
  for the last input the property tried (the failing one, which Hypothesis runs last), at most
  500 characters; ``node``: the pytest node id.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

#: A property's status.
STATUSES = ("pass", "fail", "error", "timeout", "skipped", "incomplete")
#: Verdict states that mean the file could not be judged property by property.
STATUS_STATES = ("not-started", "cannot-import", "numpy-only", "timed-out")


def telling(record: dict) -> tuple[int, int]:
    """How much a failing property explains, for the order a verdict shows failures in (lower
    first; ties keep the judge's order): what stops the whole file; the answer raising on a
    valid input ("raised IndexError …" says where); a property on which the judge named a known
    bug (its message and the bug's name agree); a specific rule ("every slice sums to 1: are
    you reducing over the right axis?"); a comparison of the whole answer with the oracle (by
    convention ``test_matches_*`` and ``test_the_largest_realistic_case_*``: almost any bug
    fails them and they name none); last the contract's errors (``test_rejects_*``), which a
    first draft fails before it checks anything."""
    name = str(record.get("id") or "")
    if record.get("file_level"):
        return (0, 0)
    if name.startswith("test_rejects_"):
        return (5, 0)
    if record.get("status") == "error":
        return (1, 0)
    general = name.startswith(("test_matches_", "test_the_largest_realistic_case"))
    if record.get("diagnosis"):
        return (2, int(general))
    return (4, 0) if general else (3, 0)


@dataclass
class Verdict:
    kata: str
    state: str  # passed | failing | not-started | cannot-import | numpy-only | timed-out | incomplete | error
    passed: int = 0
    total: int = 0
    records: list[dict] = field(default_factory=list)
    seconds: float = 0.0
    #: Why the judge could not give a full verdict (a message), for error/incomplete/timed-out.
    problem: dict | None = None
    #: The judge's own output, for a judge that failed (state "error"): shown as it is.
    output: str = ""
    #: What the worker that ran the candidate's code could enforce (Landlock ABI, no processes).
    sandbox: dict | None = None
    #: The run's seed (tests/seeding.py): ``dojo test KATA --seed N`` draws the same examples.
    seed: int | None = None

    @property
    def ok(self) -> bool:
        return self.state == "passed"

    @property
    def failures(self) -> list[dict]:
        """The failing records, the one that explains most first (``telling``); the ✓/✗ list
        keeps the judge's order."""
        return sorted((r for r in self.records if r["status"] not in ("pass", "skipped")), key=telling)

    @property
    def first_failure(self) -> dict | None:
        """The failure a screen shows first (``failures[0]``), with the verdict's diagnosis: the
        judge names the known bug on the property it found it on, which may be another one."""
        failures = self.failures
        if not failures:
            return None
        first = failures[0]
        named = next((r for r in failures if r.get("diagnosis")), None)
        if named is None or first.get("diagnosis"):
            return first
        return {**first, **{k: named[k] for k in ("diagnosis", "behaves_like", "unchecked") if k in named}}

    @property
    def diagnosis(self) -> str | None:
        """The catalogue id of the known bug the answer behaves like, if the judge named one."""
        return next((r["diagnosis"] for r in self.failures if r.get("diagnosis")), None)

    def summary(self) -> dict:
        """What the state file and the history keep of a verdict: ids, never sentences."""
        first = None
        if self.failures:
            r = self.failures[0]
            first = {"state": r["state"]} if r["state"] in STATUS_STATES and r.get("file_level") else {"property": r["id"]}
        elif self.state not in ("passed", "failing"):
            first = {"state": self.state}
        return {
            "state": self.state,
            "passed": self.passed,
            "total": self.total,
            "first_failure": first,
            "diagnosis": {"id": self.diagnosis} if self.diagnosis else None,
            # every property, for the interview report: [id, passed?, category (failure_category)]
            "properties": [[r["id"], r["status"] == "pass", failure_category(r)]
                           for r in self.records if not r.get("file_level")],
        }


#: Messages that say what a property's own title claims went wrong: values that are not
#: torch's (or a related call's), a ValueError that did not come, the property's own words.
OWN_REASONS = ("values.wrong", "expect.value-error.returned", "expect.value-error.raised",
               "expect.value-error.escaped", "text")
#: The category of a failure whose message is not one of OWN_REASONS, by message id.
CATEGORIES = {
    "candidate.raised-on-valid": "category.raised-on-valid",
    "candidate.raised": "category.raised",
    "candidate.stopped-judge": "category.raised",
    "candidate.exit": "category.exit",
    "candidate.died": "category.died",
    "candidate.broken": "category.broken",
    "candidate.timed-out": "category.timed-out",
    "candidate.too-slow": "category.too-slow",
    "candidate.too-slow.skipped": "category.too-slow",
    "candidate.hung-before": "category.not-run.hung",
    "kata.judge-stopped": "category.judge-stopped",
    "result.not-array": "category.not-array",
    "result.not-pair": "category.not-pair",
    "result.not-tuple": "category.not-tuple",
    "result.shape.explained": "category.shape",
    "result.shape": "category.shape",
    "values.wrong-shape": "category.shape",
    "result.dtype": "category.dtype",
    "values.not-finite": "category.not-finite",
    "values.not-finite.explained": "category.not-finite",
    "input.modified": "category.modified-input",
    "result.changed-later": "category.result-changed-later",
    "candidate.flaky": "category.flaky",
}
#: What a failure whose message says nothing more is, by status.
STATUS_CATEGORIES = {"timeout": "category.timed-out", "skipped": "category.skipped",
                     "incomplete": "category.not-run", "error": "category.error"}


def failure_category(record: dict) -> dict | None:
    """Why a property failed, as a category message, when its title may not say it; None when it
    passed or failed for the reason its title states (wrong values, no ValueError, its own words).

    A property's title states one claim ("x is left exactly as it was"), but any failure of the
    candidate's code fails it: raising on a valid input, a wrong shape, a hang. The category
    names which ("raised ValueError on a valid input", "returned the wrong shape", "timed out")
    from the record's data (status, message id and parameters), never from its text, and holds
    no expected value: the interview report shows it."""
    from dojo.text.messages import is_message, message

    status = record.get("status")
    if status == "pass":
        return None
    said = record.get("message")
    mid = said["id"] if is_message(said) else None
    params = (said.get("params") or {}) if mid else {}
    if status == "error" and mid == "text":  # the judge's own fault (conftest: error-in-judge)
        return message("category.judge-error")
    if mid in CATEGORIES:
        key = CATEGORIES[mid]
        if key in ("category.raised-on-valid", "category.raised"):
            kind = params.get("type")
            return message(key, type=kind) if isinstance(kind, str) and kind else message("category.error")
        if key == "category.not-tuple":  # the names of what it returns: the contract's, no pitfall
            names = params.get("names")
            return message(key, names=names) if isinstance(names, str) else message("category.error")
        return message(key)
    if status == "fail":  # its own reason (OWN_REASONS), or one this tool does not know: the title stands
        return None
    return message(STATUS_CATEGORIES.get(status, "category.error"))


def status_of(state: str) -> str:
    """A judge record's state (pytest's words and ours) as a property status."""
    return {"passed": "pass", "failed": "fail", "skipped": "skipped", "timed-out": "timeout",
            "not-run": "incomplete", "error": "error"}.get(state, "error")


def normalise(record: dict) -> dict:
    """A record as every renderer expects it, whatever wrote it (the judge, its watchdog)."""
    r = dict(record)
    r.setdefault("id", r.get("property", ""))
    r.setdefault("title", r["id"])
    r.setdefault("status", status_of(r.get("state", "error")))
    r.setdefault("message", None)
    return r


def diagnosis_description(diagnosis: str | None, lang: str | None = None) -> str | None:
    """The description of a catalogued bug (``kata/stem``: the first line of the docstring of
    ``tests/katas/<kata>/wrong/<stem>.py``, in ``lang``: ``dojo.text.locale.bug_description``), None
    if there is no such file. No full stop at its end: a sentence around it ends it."""
    import ast
    from pathlib import Path

    if not isinstance(diagnosis, str) or diagnosis.count("/") != 1:
        return None
    kata, stem = diagnosis.split("/")
    if not (kata.isidentifier() and stem.isidentifier()):
        return None
    path = Path(__file__).resolve().parents[2] / "tests" / "katas" / kata / "wrong" / f"{stem}.py"
    try:
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or stem
    except (OSError, SyntaxError, ValueError):
        return None
    from dojo.text import locale

    english = doc.strip().splitlines()[0].rstrip(".")
    return locale.bug_description(kata, stem, english, lang).rstrip(".。")


#: At most this many of the cases a diagnosis says are unchecked are named; the rest are counted.
UNCHECKED_SHOWN = 4


def unchecked_message(names: list[str], module: str | None = None) -> dict:
    """'It also does not raise ValueError for: …', from a diagnosis's ``unchecked`` (the names
    of the compare battery's error cases the answer let through, ``dojo/judge/diagnosis.py``), in the
    screen's language (``module``: the kata whose battery names them, for their translation)."""
    from dojo.text import locale
    from dojo.text.messages import message, t

    shown = t("punct.list").join(locale.case_name(module, str(n)) if module else str(n)
                                 for n in names[:UNCHECKED_SHOWN])
    if len(names) > UNCHECKED_SHOWN:
        return message("diagnosis.unchecked-more", cases_text=shown, count=len(names) - UNCHECKED_SHOWN)
    return message("diagnosis.unchecked", cases_text=shown)


# -- stored references: what state.json and history.jsonl keep of a verdict ----------------------
# A first failure is {"property": id} or {"state": state}; a diagnosis is {"id": "kata/stem"}.
# Files written before ids (plain English: a property's title, a state, a bug's description) are
# migrated when read: a title or description that is found becomes its id, anything else is kept
# as {"text": ...} and shown as it was.


def properties_of(test_file) -> list[tuple[str, str]]:
    """(name, statement) of every property in a kata's test file, read without importing it."""
    tree = ast.parse(test_file.read_text(encoding="utf-8"))
    found = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
            doc = ast.get_docstring(node) or node.name
            found.append((node.name, doc.strip().splitlines()[0]))
    return found


def property_titles(kata: str, lang: str | None = None) -> dict[str, str]:
    """Each property's id and title, in the judge's order, read without importing the judge; the
    titles in ``lang`` (default: the screen's; ``dojo.text.locale.property_title``)."""
    from dojo.text import locale
    from dojo.catalogue import registry

    spec = registry.BY_MODULE.get(kata)
    if spec is None:
        return {}
    try:
        found = properties_of(spec.test_path)
    except (OSError, SyntaxError, ValueError):
        return {}
    return {pid: locale.property_title(kata, pid, title, lang) for pid, title in found}


def property_title(kata: str, pid: str, lang: str | None = None) -> str:
    return property_titles(kata, lang).get(pid, pid)


def title_message(kata: str, pid: str, english: str) -> dict:
    """A property's title as message data, for a message that names a property: rendered in the
    screen's language from ``judge.<kata>.property.<pid>`` (a Chinese catalogue's), and in
    English, which has no such id (the title is the test's docstring), from its ``text``
    parameter: ``dojo.text.messages.text`` says an id it does not know by its parameters."""
    return {"id": f"judge.{kata}.property.{pid}", "params": {"text": english}}


def first_failure_ref(value, kata: str | None):
    """A stored first failure in today's form (migrating a sentence from before ids)."""
    if value is None or (isinstance(value, dict) and len(value) == 1
                         and next(iter(value)) in ("property", "state", "text")
                         and isinstance(next(iter(value.values())), str)):
        return value
    if not isinstance(value, str):
        return {"text": str(value)}
    if value in STATUS_STATES or value in ("incomplete", "error", "failing"):
        return {"state": value}
    for pid, title in property_titles(kata or "", "en").items():
        if title == value:
            return {"property": pid}
    return {"text": value}


def diagnosis_ref(value, kata: str | None):
    """A stored diagnosis in today's form (migrating a description from before ids)."""
    if value is None or (isinstance(value, dict) and len(value) == 1
                         and next(iter(value)) in ("id", "text") and isinstance(next(iter(value.values())), str)):
        return value
    if not isinstance(value, str):
        return {"text": str(value)}
    from pathlib import Path

    folder = Path(__file__).resolve().parents[2] / "tests" / "katas" / str(kata or "") / "wrong"
    if kata and folder.is_dir():
        for path in sorted(folder.glob("*.py")):
            if diagnosis_description(f"{kata}/{path.stem}", "en") == value.rstrip("."):
                return {"id": f"{kata}/{path.stem}"}
    return {"text": value}


def first_failure_words(ref, kata: str | None) -> str | None:
    """A first failure as a person says it: a property's title, or what is wrong with the file."""
    from dojo.text.messages import ENGLISH, message, text

    ref = first_failure_ref(ref, kata)
    if ref is None:
        return None
    if "property" in ref:
        return property_title(kata or "", ref["property"])
    if "state" in ref:
        key = f"first-failure.{ref['state']}"
        return text(message(key)) if key in ENGLISH else ref["state"]
    return ref["text"]


def diagnosis_words(ref, kata: str | None) -> str | None:
    ref = diagnosis_ref(ref, kata)
    if ref is None:
        return None
    if "id" in ref:
        return diagnosis_description(ref["id"]) or ref["id"]
    return ref["text"]


def migrate_summary(verdict: dict, kata: str | None) -> dict:
    """A stored verdict summary (state.json, an interview record) in today's form."""
    out = dict(verdict)
    if "first_failure" in out:
        out["first_failure"] = first_failure_ref(out["first_failure"], kata)
    if "diagnosis" in out:
        out["diagnosis"] = diagnosis_ref(out["diagnosis"], kata)
    return out


def overran(module: str, seconds: float) -> Verdict:
    """The verdict when the tool's backstop ended the judge (dojo/judge/runner.py RUN_TIMEOUT):
    the judge's doing, never the candidate's, whose every call has its own limits."""
    return Verdict(module, "incomplete", seconds=seconds,
                   problem={"id": "verdict.judge-timeout", "params": {"seconds": f"{seconds:g}"}})
