"""The ``dojo compare`` command: its arguments (``register``), and ``compare``, which runs the
four sections in order and returns the exit code."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from dojo.text import locale
from dojo.commands.cli import Exit, UsageError, kata_arg, number, shown
from dojo.commands.compare.agreement import ATOL, MAX_TIMEOUTS, RTOL, outcome_json, run_battery
from dojo.commands.compare.maps import build_maps, heading_parts, png_heading
from dojo.commands.compare.report import agreement_section, diff_lines, fit, fit_width, maps_json, report_json, speed_section
from dojo.commands.compare.speed import run_speed
from dojo.commands.compare.unlock import code_diff, code_unlocked, locked_text
from dojo.catalogue.env import Env
from dojo.text.messages import t
from dojo.screens.render import paint
from dojo.text.screen import cell_len, pad
from dojo.state.state import atomic_write_bytes, atomic_write_text

if TYPE_CHECKING:
    from dojo.catalogue.batteries import Battery
    from dojo.catalogue.registry import Kata

DEFAULT_TIMEOUT = 3.0


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "compare",
        help=t("compare.help"),
        description=t("compare.description"),
    )
    p.add_argument("kata")
    p.add_argument("--file", metavar="PATH", help=t("compare.arg.file"))
    p.add_argument("--reveal", action="store_true", help=t("compare.arg.reveal"))
    p.add_argument("--png", metavar="PATH", help=t("compare.arg.png"))
    p.add_argument("--json", metavar="PATH", help=t("compare.arg.json"))
    p.add_argument("--timeout", type=number(0, 3600, "seconds", low_open=True), default=DEFAULT_TIMEOUT, metavar="S",
                   help=t("compare.arg.timeout", default=f"{DEFAULT_TIMEOUT:g}"))
    p.add_argument("--no-speed", action="store_true", help=t("compare.arg.no-speed"))
    p.add_argument("--sizes", type=_sizes, default=None, help=argparse.SUPPRESS)  # tests: smaller timings
    p.set_defaults(func=cmd_compare)


def _sizes(text: str) -> tuple[int, ...]:
    try:
        sizes = tuple(int(s) for s in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(t("compare.arg.sizes.numbers")) from None
    if len(sizes) < 2 or sizes[0] <= 0 or any(a >= b for a, b in zip(sizes, sizes[1:])):
        raise argparse.ArgumentTypeError(t("compare.arg.sizes.increasing"))
    return sizes


def _writable(raw: str | None, flag: str) -> Path | None:
    if not raw or raw == "-":
        return None
    path = Path(raw)
    if path.is_dir():
        raise UsageError(t("compare.usage.is-folder", flag=flag, path=raw))
    if not path.parent.exists():
        raise UsageError(t("compare.usage.no-folder", flag=flag, path=raw, folder=str(path.parent)))
    return path


def _needs_matplotlib() -> None:
    """Before the comparison runs: --png draws with matplotlib (a dependency, but an environment
    can lack it), so say so now rather than fail after the work."""
    try:
        import matplotlib  # noqa: F401  (the package alone: its figure modules load when drawing)
    except ImportError:
        raise UsageError(t("compare.usage.no-matplotlib")) from None


def cmd_compare(env: Env, args) -> int:
    kata = kata_arg(args.kata)
    if args.json == "-" and args.png == "-":
        raise UsageError(t("compare.usage.both-stdout"))
    if args.png == "-":
        raise UsageError(t("compare.usage.png-dash"))
    if args.json != "-":
        return compare(env, args, kata)
    # --json -: standard output carries the JSON alone (for a pipe into jq); the report goes to stderr
    out = env.stdout
    env.stdout = env.stderr
    try:
        code, report = compare(env, args, kata, keep=True)
    finally:
        env.stdout = out
    out.write(report_json(report))
    out.flush()
    return code


def compare(env: Env, args, kata, keep: bool = False):
    """The comparison itself: its exit code (and with ``keep`` the report, for ``--json -``)."""
    width = fit_width(env)
    path = _your_file(env, args, kata)
    png_path = _writable(args.png, "--png")
    if png_path:
        _needs_matplotlib()
    json_path = _writable(args.json, "--json")
    c = _prepare(env, args, kata, path, width)

    from dojo.worker.isolate import Isolated

    c.say(t("compare.title", kata=kata.module, title=locale.kata_title(kata)), "bold")
    labels = {name: t(f"compare.label.{name}") for name in ("yours", "reference")}
    room = max(cell_len(label) for label in labels.values()) + 1
    env.say(f"  {pad(labels['yours'], room)}{c.your_name}")
    env.say(f"  {pad(labels['reference'], room)}{c.ref_name}")
    with Isolated(path, kata.function, load_timeout=max(11.0, args.timeout)) as yours:
        rows, broken = section_agreement(c, yours)
        section_maps(c, yours, rows, broken, png_path)
        section_speed(c, yours, rows, broken)
    section_code(c)

    if json_path:
        atomic_write_text(json_path, report_json(c.report), env)
        env.say(t("compare.wrote-json", path=shown(env, json_path)))
    code = Exit.OK if c.report["agree"] else Exit.FAILED
    return (code, c.report) if keep else code


@dataclass
class Comparison:
    """What the four sections share: the kata, its battery and reference, your file, the width
    to fit, and the report (the JSON) that each section adds to."""

    env: Env
    args: argparse.Namespace
    kata: Kata
    battery: Battery
    path: Path
    ref_path: Path
    ref_fn: Callable
    your_name: str
    ref_name: str
    width: int | None
    report: dict

    def heading(self, text: str) -> None:
        self.env.say()
        self.say(text, "bold")

    def say(self, text: str, *styles: str) -> None:
        """One sentence, wrapped to the terminal's width, each line painted."""
        for ln in fit(text, self.width):
            self.env.say(paint(self.env, ln, *styles))


def _your_file(env: Env, args, kata) -> Path:
    if args.file:
        path = Path(args.file)
        if path.is_dir():  # an interview's attempt folder: its graded copy (a path that fits 80 columns)
            path = next((p for p in (path / "final" / f"{kata.module}.py", path / f"{kata.module}.py") if p.is_file()),
                        path)
        if not path.is_file():
            raise UsageError(t("compare.usage.no-file", path=args.file))
    else:
        path = env.kata_file(kata)
    return path


def _prepare(env: Env, args, kata, path: Path, width: int | None) -> Comparison:
    """The kata's battery and reference beside your file, and the report's first fields."""
    from dojo.catalogue.batteries import BATTERIES
    from dojo.worker.loader import load_kata

    battery = BATTERIES.get(kata.module)
    if battery is None:
        raise UsageError(t("compare.usage.no-battery", kata=kata.module))
    ref_path = env.solution_file(kata)
    ref_fn = load_kata(ref_path, kata.function)
    report = {"kata": kata.module, "file": str(path), "reference": str(ref_path),
              "tolerance": ({"name": battery.tolerance} if battery.tolerance else
                            {"rtol": RTOL, "atol": ATOL, "atol_scaled_by": "max(1, max |reference|)"}),
              "timeout": args.timeout}
    return Comparison(env, args, kata, battery, path, ref_path, ref_fn, shown(env, path), shown(env, ref_path),
                      width, report)


def section_agreement(c: Comparison, yours) -> tuple[list[dict], str | None]:
    """1. Every case through both. The rows, and why yours cannot be compared at all (it cannot
    be loaded, or is still the stub), else None."""
    env, kata, battery = c.env, c.kata, c.battery
    problem = yours.load()
    broken = None
    c.heading(t("compare.heading.agreement.own", count=len(battery.cases), name=battery.tolerance) if battery.tolerance
              else t("compare.heading.agreement", count=len(battery.cases)))
    if problem is not None:
        state = problem.error_type
        label = state if state in ("numpy-only", "timed-out", "crashed") else "cannot-import"
        broken = t(f"compare.broken.{label}", file=c.your_name)
        rows = [{"case": t("compare.every-case"), "kind": "—", "agree": False,
                 "result": t("compare.output", name=broken, text=problem.message),
                 "diffs": {}, "reference": {}, "yours": outcome_json(problem)}]
        for ln in agreement_section(env, rows, battery, c.width, summary=False):
            env.say(ln)
        c.say(t("compare.nothing-to-compare", broken=broken, kata=kata.module), "red", "bold")
    else:
        outcomes: list = []
        rows = run_battery(battery, c.ref_fn, yours, c.args.timeout, c.path.name, outcomes)
        stub = all(r["yours"].get("type") == "NotImplementedError" for r in rows)
        if stub:
            broken = t("compare.stub.raises", function=kata.function)
            rows = [{"case": t("compare.every-case"), "kind": "—", "agree": False,
                     "result": t("compare.stub.row", broken=broken), "diffs": {}, "reference": {},
                     "yours": rows[0]["yours"]}]
            c.say(t("compare.stub.say", broken=broken, file=c.your_name), "red", "bold")
        else:
            for ln in agreement_section(env, rows, battery, c.width):
                env.say(ln)
            if not all(r["agree"] for r in rows):
                _known_bug(c, outcomes, [r["case"] for r in rows])
    c.report["cases"] = rows
    disagree = sum(not r["agree"] for r in rows)
    c.report["agree"] = disagree == 0
    return rows, broken


def _known_bug(c: Comparison, outcomes: list, names: list[str]) -> None:
    """Name the catalogued wrong answer that yours behaves like, if one does (dojo/judge/diagnosis.py)."""
    from dojo.judge.diagnosis import match

    found = match(c.kata.module, c.kata.function, [i for i, _ in outcomes], [o for _, o in outcomes], names=names)
    if found is not None:
        c.env.say(paint(c.env, found.sentence(), "yellow", "bold"))
        c.report["diagnosis"] = {"description": found.description, "behaves_like": list(found.stems),
                                 "unchecked": list(found.unchecked)}


def section_maps(c: Comparison, yours, rows: list[dict], broken: str | None, png_path: Path | None) -> None:
    """2. The map example's attention weights, yours beside the reference's (and the PNG)."""
    from dojo.catalogue.batteries import battery_text
    from dojo.screens.heatmap import terminal_lines

    env = c.env
    c.heading(t("compare.heading.maps", what=battery_text(c.battery, "map_what")))
    hung = sum(r["yours"].get("status") == "timeout" for r in rows)
    no_map = broken or (t("compare.maps.timed-out", count=hung) if hung >= MAX_TIMEOUTS else None)
    maps, notes = build_maps(c.battery, c.ref_fn, yours, c.args.timeout, c.path.name, no_map)
    if not (png_path and locale.FRONT == "notebook"):  # a notebook shows the picture in their place
        for ln in terminal_lines(maps, env.color, width=c.width):
            env.say(ln)
    for colour, sentence in notes:
        c.say(sentence, colour)
    c.report["maps"] = maps_json(maps)
    c.report["map_heading"] = png_heading(c.kata, c.battery, lang="en")  # the English figure's (docs/compare.md)
    c.report["map_notes"] = [sentence for _, sentence in notes]
    if png_path:
        from dojo.screens.figure import drawn_language, render_png  # matplotlib: only when a PNG is asked for

        lang = drawn_language()  # the tool's language, or English when no font can draw it
        heading = c.report["map_heading"] if lang == "en" else png_heading(c.kata, c.battery, lang=lang)
        title = " ".join(heading_parts(c.kata, c.battery, lang))
        atomic_write_bytes(png_path, render_png(maps, heading, lang, title), env)
        env.say(t("compare.wrote-png", path=shown(env, png_path)))
        if lang != locale.LANGUAGE:
            env.say(t("compare.png.no-font"))


def section_speed(c: Comparison, yours, rows: list[dict], broken: str | None) -> None:
    """3. Reference, yours and torch timed at several sizes; only for an answer that agrees everywhere."""
    env, args = c.env, c.args
    c.heading(t("compare.heading.speed"))
    disagree = sum(not r["agree"] for r in rows)
    if broken:
        reason = t("compare.speed.skipped", why=broken)
    elif disagree:
        reason = t("compare.speed.skipped.disagree", count=disagree)
    elif args.no_speed:
        reason = t("compare.speed.skipped.flag")
    else:
        reason = None
    if reason:
        c.say(reason)
        c.report["speed"] = {"skipped": reason}
    else:
        env.say(paint(env, t("compare.speed.timing"), "dim"))
        speed = run_speed(env, c.battery, c.ref_fn, yours, args.timeout, args.sizes)
        speed_section(env, speed, c.width)
        c.report["speed"] = speed


def section_code(c: Comparison) -> None:
    """4. The unified diff, reference → yours, once unlocked (dojo/commands/compare/unlock.py)."""
    env = c.env
    c.heading(t("compare.heading.code"))
    show, gives_up = code_unlocked(env, c.kata, c.args.reveal)
    if show:
        diff = code_diff(c.ref_path, c.path, c.ref_name, c.your_name)
        if not diff:
            env.say(t("compare.code.identical"))
        for ln in diff_lines(env, diff):
            env.say(ln)
        if gives_up:
            env.say(paint(env, t("compare.code.gave-up"), "dim"))
        c.report["diff"] = "\n".join(diff)
    else:
        for ln in fit(locked_text(env, c.kata), c.width):
            env.say(ln)
    c.report["diff_shown"] = show
