"""How the comparison reads: sections 1, 3 and 4 as lines fitted to the terminal, and the JSON.

``fit_width`` picks the width (``dojo.text.screen.columns``: $COLUMNS, else the terminal; None for a pipe
or a file, which get one line a row, for grep) and ``fit`` wraps a sentence to it (by rich, at word
boundaries, in terminal cells). Section 2's pictures are drawn by
``dojo/screens/heatmap.py``. ``report_json`` is the report as JSON text (inf and NaN as null).
"""

from __future__ import annotations

import json
import math

from dojo.text import screen
from dojo.commands.compare.words import human_bytes, human_time
from dojo.catalogue.env import Env
from dojo.text.messages import t
from dojo.screens.render import paint, table


def fit_width(env: Env) -> int | None:
    """The width to fit: $COLUMNS when set, else the terminal written to; None when the output
    is a pipe or a file, which get one line a row (for grep)."""
    return screen.columns(env)


def fit(text: str, width: int | None, first: str = "", indent: str = "") -> list[str]:
    """``text`` wrapped at word boundaries to ``width`` columns, the first line after ``first``
    and the others after ``indent`` (one line when width is None)."""
    if width is None:
        return [first + text]
    room = max(20, width) - max(screen.cell_len(first), screen.cell_len(indent))
    lines = screen.wrap_text(text, room) or [""]  # Chinese breaks between characters (dojo/text/cjk.py)
    return [first + lines[0]] + [indent + ln for ln in lines[1:]]


#: Punctuation a line may not start with (it stays with the character before it) or end with.


def agreement_section(env: Env, rows: list[dict], battery, width: int | None = None,
                      summary: bool = True) -> list[str]:
    """The table of cases, disagreeing first, fitted to ``width`` columns (None: one line a row).

    A long result wraps under its own column; on a terminal too narrow even for that, each case
    takes two lines: the case, then its result."""
    from dojo.catalogue.batteries import KINDS, case_name

    def kind(r) -> str:  # the JSON keeps the English kind, the screen says it in its language
        return t(f"compare.kind.{r['kind']}") if r["kind"] in KINDS else r["kind"]

    ordered = [r for r in rows if not r["agree"]] + [r for r in rows if r["agree"]]
    names = [case_name(battery, r["case"]) for r in ordered]
    heads = [t("compare.table.case"), t("compare.table.kind"), t("compare.table.result")]
    case_w = max([screen.cell_len(heads[0])] + [screen.cell_len(name) for name in names])
    kind_w = max([screen.cell_len(heads[1])] + [screen.cell_len(kind(r)) for r in ordered])
    room = None if width is None else width - (1 + 2 + case_w + 2 + kind_w + 2)
    lines = []

    def mark(r) -> str:
        return paint(env, "✓", "green") if r["agree"] else paint(env, "✗", "red")

    def result(r, text: str) -> str:
        return text if r["agree"] else paint(env, text, "red")

    if room is not None and room < 30:
        for r, name in zip(ordered, names):
            lines += fit(t("compare.case-kind", case=name, kind=kind(r)), width - 3, first=mark(r) + "  ", indent="   ")
            lines += [result(r, ln) for ln in fit(r["result"], width - 5, first="     ", indent="     ")]
    else:
        cells = []
        for r, name in zip(ordered, names):
            parts = fit(r["result"], room) if room else [r["result"]]
            cells.append([mark(r), name, kind(r), result(r, parts[0])])
            cells += [["", "", "", result(r, part)] for part in parts[1:]]
        lines += table(cells, ["", *heads])
    if not summary:
        lines.append("")
        return lines
    lines.append("")
    bad = [r for r in rows if not r["agree"]]
    sep = t("compare.list.sep")
    if not bad:
        counts = sep.join(t(f"compare.count.{k}", count=sum(r["kind"] == k for r in rows)) for k in KINDS)
        text, style = t("compare.agree-all", count=len(rows), counts=counts), "green"
    else:
        kinds = sep.join(t(f"compare.count.{k}", count=n) for k in KINDS if (n := sum(r["kind"] == k for r in bad)))
        text, style = t("compare.disagree", bad=len(bad), total=len(rows), counts=kinds), "red"
    lines += [paint(env, ln, style, "bold") for ln in fit(text, width)]
    return lines


def threads_text(th: dict) -> str:
    """``Threads: 1 for NumPy (one BLAS thread in each worker, …), 1 for torch.``: each count
    says whose it is ("…, torch 2." at the end of the line read like torch's version)."""
    if "torch" in th:
        return t("compare.speed.threads.torch", numpy=th["numpy"], source=th["source"], torch=th["torch"])
    return t("compare.speed.threads", numpy=th["numpy"], source=th["source"])


def speed_section(env: Env, speed: dict, width: int | None = None) -> None:
    """Print section 3: what was timed, the table (fitted to the terminal by ``screen.table``:
    its headings wrap, a time or a size never breaks), the verdicts."""
    from dojo.text.messages import message, text

    def glued(cell: str) -> str:
        return cell.replace(" ", screen.NBSP)

    small, big = speed["shown"]
    th = speed["threads"]
    lines = fit(t("compare.speed.what", what=speed["what"], threads=threads_text(th)), width)
    lines += fit(text(message("compare.speed.timed-at", sizes=", ".join(map(str, speed["sizes"])),
                              rounds=speed["rounds"], one_round=human_time(speed["one_round"]))), width)
    cells = []
    for name in ("reference", "yours", "torch"):
        row = speed["rows"][name]
        ratio = row.get("ratio")
        peak = row.get("peak", {})
        untraced = t("compare.speed.not-traced") if name == "torch" else t("compare.speed.too-slow-to-trace")

        def memory(n):
            return glued(human_bytes(peak[n])) if peak.get(n) is not None else untraced

        memory_growth = row.get("memory_growth")
        growth_cell = text(row["problem"]) if row.get("problem") and not row["times"] else text(row["growth_cell"])
        cells.append([
            t(f"compare.speed.row.{name}"),
            glued(human_time(row["seconds"].get(small))),
            memory(small),
            glued(human_time(row["seconds"].get(big))),
            memory(big),
            (f"{ratio:.2f}×" if ratio < 10 else f"{ratio:.0f}×") if ratio else "—",
            glued(growth_cell) if growth_cell.startswith("n^") else growth_cell,
            f"n^{memory_growth:.1f}" if memory_growth is not None else "—",
        ])
    versus = t("compare.speed.head.versus") if speed["ratio_n"] == big else t("compare.speed.head.versus-at",
                                                                                n=speed["ratio_n"])
    peak_head = t("compare.speed.head.peak")
    for ln in lines:
        env.say(ln)
    screen.table(env, ["", f"n={small}", peak_head, f"n={big}", peak_head, versus,
                       t("compare.speed.head.time"), t("compare.speed.head.memory")], cells)
    env.say()
    for colour, note in speed["notes"]:
        for ln in fit(text(note), width):
            env.say(paint(env, ln, colour))


#: The mark that starts a diff line's continuation on a narrow terminal, after its +, - or space.
CONTINUED = "↪"


def diff_lines(env: Env, diff: list[str]) -> list[str]:
    """The diff, coloured; on a terminal, a line wider than it is cut at the margin and each
    piece after the first starts with the line's own +, - or space and ``CONTINUED`` (word
    wrapping would start the tail of a ``-`` line at column 0, where it reads as unchanged code)."""
    width = screen.columns(env)
    out = []
    for ln in diff:
        style = ("bold" if ln.startswith(("+++", "---")) else "cyan" if ln.startswith("@@")
                 else "green" if ln.startswith("+") else "red" if ln.startswith("-") else None)
        for piece in _pieces(ln, width):
            out.append(paint(env, piece, style) if style else piece)
    return out


def _pieces(ln: str, width: int | None) -> list[str]:
    """``ln`` cut into lines of at most ``width`` cells, continuations marked."""
    if width is None or width < 8 or screen.cell_len(ln) <= width:
        return [ln]
    ln = ln.expandtabs(4)
    sign = ln[0] if ln[:1] in ("+", "-", " ") and not ln.startswith(("+++", "---", "@@")) else ""
    pieces, current, used, room = [], "", 0, width
    for ch in ln:
        cells = screen.cell_len(ch)
        if used + cells > room:
            pieces.append(current)
            current, used, room = sign + CONTINUED, len(sign) + 1, width
        current += ch
        used += cells
    pieces.append(current)
    return pieces


def report_json(report: dict) -> str:
    """The whole comparison as the text of a JSON file (inf and NaN as null)."""
    return json.dumps(json_safe(report), indent=1) + "\n"


def json_safe(obj):
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, dict):
        return {str(k): json_safe(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [json_safe(v) for v in obj]
    return obj


def _matrix(a):
    return None if a is None else [[float(v) for v in row] for row in a]


def maps_json(maps) -> list[dict]:
    """Section 2's maps as the report holds them: each matrix as rows of floats, None where there is none."""
    return [
        {"title": m.title, "reference": _matrix(m.reference), "yours": _matrix(m.yours),
         "differ": None if m.differ is None else m.differ.tolist(),
         "blocked": None if m.blocked is None else [[bool(v) for v in row] for row in m.blocked], "note": m.note}
        for m in maps
    ]
