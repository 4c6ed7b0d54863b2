"""The notebook's screens as HTML: a verdict (the same object ``dojo test`` renders, ✓/✗ per
property, the first failure with expected and got, the diagnosis, compare's heatmap), the
progress line while the judge runs, and a command's screen as it reads in a terminal.

Every sentence comes from the catalogues (``dojo.text.messages``), in the tool's language. Nothing
here imports IPython but ``show``, which gives each fragment its text as a plain fallback.
"""

from __future__ import annotations

import base64
import re
from html import escape

from dojo.text import locale
from dojo.catalogue import registry
from dojo.text.messages import message, t, text

GREEN, RED, GREY, AMBER = "#1a7f37", "#cf222e", "#6e7781", "#9a6700"
#: A terminal's text: monospace said outright (nbconvert's HTML export gave it the page's
#: proportional font, and compare's table lost its columns), and a line longer than the
#: output is wide wraps, as in a terminal, rather than being cut off (the export cut it).
PRE = ("margin:0.3em 0 0.3em 1em;padding:0.4em 0.6em;background:rgba(127,127,127,0.08);"
       "white-space:pre-wrap;overflow-wrap:anywhere;font-family:var(--jp-code-font-family,ui-monospace,monospace)")


def show(html: str, handle=None):
    """Show ``html`` in the cell's output, with its text as the plain-text fallback (what a
    viewer without HTML, nbconvert's text export or a console shows): a new display (returned,
    so it can be updated in place), or ``handle`` updated. IPython is imported here, in a
    kernel only."""
    from IPython.display import display

    from dojo.commands.notebook.process import interrupt_deferred

    bundle = {"text/html": html, "text/plain": plain(html)}
    # Kernel → Interrupt is held back while the display is published, and raised after it: a
    # KeyboardInterrupt inside IPython's publishing was swallowed there (the cell went on to
    # its end) or left it unable to publish the "Stopped" line after (the cell hung), on a busy
    # machine where the progress line takes a good part of each tick
    with interrupt_deferred() as came:
        if handle is not None:
            handle.update(bundle, raw=True)
            shown = handle
        else:
            shown = display(bundle, raw=True, display_id=True)
    if came:
        raise KeyboardInterrupt
    return shown


_BREAKS = re.compile(r"<br\s*/?>|</(?:div|p|pre|li|tr|h\d)>", re.I)
_IMAGE = re.compile(r'<img\b[^>]*\balt="([^"]*)"[^>]*>', re.I)
_TAG = re.compile(r"<[^>]+>")


def plain(html: str) -> str:
    """The text of one of this module's fragments: lines where blocks end, an image by its
    description, no tags."""
    from html import unescape

    text = _IMAGE.sub(lambda m: f"[{m.group(1)}]\n", html)
    text = _TAG.sub("", _BREAKS.sub("\n", text))
    lines = [line.rstrip() for line in unescape(text).split("\n")]
    out = []
    for line in lines:
        if line or (out and out[-1]):
            out.append(line)
    return "\n".join(out).strip("\n")


def png_img(data: bytes, alt: str) -> str:
    """A PNG inline, as the notebook shows it: the one place that turns image bytes into HTML
    (the bytes are ``dojo compare --png``'s picture, drawn by ``dojo.screens.figure``)."""
    return (f'<img class="dojo-heatmap" alt="{escape(alt)}" style="max-width:100%" '
            f'src="data:image/png;base64,{base64.b64encode(data).decode("ascii")}">')


def pre(body: str, cls: str = "dojo-screen") -> str:
    return f'<pre class="{cls}" style="{PRE}">{escape(body)}</pre>'


_CODE = re.compile(r"`([^`<>]+)`")


def code_spans(escaped: str) -> str:
    """A title's `name` as code, as the contract's Markdown shows it (escaped text in, HTML out)."""
    return _CODE.sub(r"<code>\1</code>", escaped)


def box(inner: str, cls: str = "dojo") -> str:
    return f'<div class="{cls}" style="font-family:var(--jp-ui-font-family,sans-serif);line-height:1.45">{inner}</div>'


def screen(lines: list[str], heading: str | None = None) -> str:
    """A command's screen (``dojo show``, ``dojo hint``, ``dojo compare``) as it reads in a
    terminal, kept whole."""
    head = f"<div><b>{escape(heading)}</b></div>" if heading else ""
    return box(head + pre("\n".join(lines).rstrip("\n")))


def progress(kata: registry.Kata, seconds: float, done: int = 0, expected: int = 0, what: str = "judging") -> str:
    """The line shown while a child runs: what, how far, how long, and how to stop it."""
    count = t("notebook.progress.count", done=done, total=expected) if expected else ""
    said = t(f"notebook.progress.{what}", kata=kata.module, count=count, seconds=f"{seconds:.1f}")
    return box(f'<span class="dojo-progress" style="color:{GREY}">⏳ {escape(said)}</span>'
               f'<br><small style="color:{GREY}">{escape(t("notebook.progress.stop"))}</small>')


def stopped(kata: registry.Kata, what: str = "judge") -> str:
    return box(f'<span class="dojo-stopped" style="color:{AMBER}">■ {escape(t(f"notebook.stopped.{what}", kata=kata.module))}</span>')


def error(said: str) -> str:
    return box(f'<span class="dojo-error" style="color:{RED}">{escape(said)}</span>')


def note(said: str, colour: str = GREY) -> str:
    return box(f'<span class="dojo-note" style="color:{colour}">{escape(said)}</span>')


def verdict(v, kata: registry.Kata, shown_file: str, images: list[str] = (), lines: list[str] | None = None,
            details: bool = True) -> str:
    """The verdict ``v`` (a ``dojo.judge.verdict.Verdict``) as HTML. A verdict that is about the file
    rather than its properties (not started, cannot import, judge error …) is shown as the
    terminal says it: ``lines``, ``dojo.screens.render.verdict_lines``. ``details``: the first failure
    and its diagnosis (an interview shows only the counts)."""
    from dojo.screens.render import STATE_LABELS, pass_count

    head = (f"<div><b>{escape(kata.module)} — {escape(locale.kata_title(kata))}</b>"
            f' <span style="color:{GREY}">({escape(shown_file)})</span></div>')
    per_property = v.state in ("passed", "failing", "incomplete") or (v.state == "timed-out" and v.total)
    if not per_property:
        label, _ = STATE_LABELS.get(v.state, (v.state, ""))
        body = "\n".join(str(ln) for ln in (lines or [])[1:])
        return box(head + f'<div class="dojo-state-{escape(v.state)}" style="color:{RED}">{escape(label)}</div>'
                   + pre(body), "dojo dojo-verdict")
    items = []
    for r in v.records:
        ok, skipped = r["status"] == "pass", r["status"] == "skipped"
        mark, colour, cls = ("✓", GREEN, "pass") if ok else (("–", GREY, "skipped") if skipped else ("✗", RED, "fail"))
        title = locale.property_title(kata.module, r["id"], r["title"])
        extra = escape(t("verdict.skipped")) if skipped else ""
        items.append(f'<li class="dojo-{cls}"><span style="color:{colour};font-weight:bold">{mark}</span> '
                     f"{code_spans(escape(title))}{extra}</li>")
    out = [head, f'<ul style="list-style:none;margin:0.3em 0;padding-left:0.8em">{"".join(items)}</ul>']
    if details and v.problem and v.state in ("incomplete", "timed-out"):
        out.append(f'<div style="color:{RED}"><b>{escape(t("verdict.did-not-finish"))}</b></div>')
        out.append(pre("\n".join(x for x in (text(v.problem), v.output) if x)))
    failures = v.failures
    if details and failures:
        out.append(failure(v.first_failure, kata))
        if len(failures) > 1:
            out.append(f'<div style="color:{GREY}">{escape(t("verdict.more-failing", count=len(failures) - 1))}</div>')
    out += [f'<div class="dojo-heatmaps">{img}</div>' for img in images]
    seconds = t("verdict.seconds", seconds=f"{v.seconds:.1f}")
    if v.ok:
        out.append(f'<div class="dojo-summary" style="color:{GREEN};font-weight:bold">'
                   f'{escape(t("verdict.passed", count_text=pass_count(v.passed, v.total)))}{escape(seconds)}</div>')
    else:
        out.append(f'<div class="dojo-summary">{escape(t("verdict.failing", count_text=pass_count(v.passed, v.total)))}'
                   f"{escape(seconds)}</div>")
    return box("".join(out), "dojo dojo-verdict")


def failure(record: dict, kata: registry.Kata) -> str:
    """The first failure: what went wrong (expected and got), the diagnosis, the input."""
    from dojo.screens.render import failure_text
    from dojo.judge.verdict import diagnosis_description, unchecked_message

    described = diagnosis_description(record.get("diagnosis"))
    what = text(record.get("message"))
    if record.get("at"):
        what += "\n" + text(record["at"])
    if record.get("hint") and not described:
        what += "\n" + text(record["hint"])
    out = [f'<div style="color:{RED};margin-top:0.5em"><b>{escape(t("verdict.first-failure"))}</b></div>',
           pre(what, "dojo-failure")]
    if described:
        said = text(message("diagnosis", description_text=described))
        if record.get("unchecked"):
            said += " " + text(unchecked_message(record["unchecked"], kata.module))
        out.append(f'<div class="dojo-diagnosis" style="margin:0.3em 0 0.3em 1em;padding:0.3em 0.6em;'
                   f'border-left:3px solid {AMBER}">{escape(said)}</div>')
    calls = failure_text({**record, "message": None, "at": None, "hint": None, "diagnosis": None}, kata.function)
    if calls.strip():
        out.append(pre(calls.strip("\n"), "dojo-input"))
    return "".join(out)


def interview_count(summary: dict) -> str:
    """An interview's judge run as the interviewer shows it: how many properties pass."""
    from dojo.screens.render import STATE_LABELS, pass_count

    if summary.get("state") == "passed":
        said, colour = t("notebook.interview.passed", count=pass_count(summary["total"], summary["total"])), GREEN
    elif summary.get("total"):
        said, colour = t("notebook.interview.count", count=pass_count(summary["passed"], summary["total"])), RED
    else:
        said, colour = STATE_LABELS.get(summary.get("state"), (str(summary.get("state")), ""))[0], RED
    return f'<div class="dojo-interview-count" style="color:{colour};font-weight:bold">{escape(said)}</div>'


def countdown(kata: registry.Kata, left: float, uid: str) -> str:
    """The interview's clock, counted down in the browser by a small script (no ipywidgets):
    it keeps running between cells. Without scripts (an untrusted notebook) it shows the time
    left when the output was made."""
    up = json_text(t("notebook.countdown.up", kata=kata.module))
    label = json_text(t("notebook.countdown.left"))
    left = max(0.0, left)
    start = f"{int(left) // 60}:{int(left) % 60:02d}"
    return (f'<div class="dojo-countdown">⏱ <span id="dojo-clock-{uid}">{escape(t("notebook.countdown.left"))} {start}</span></div>'
            f"<script>(function(){{var end=Date.now()+{int(left * 1000)};"
            f'var el=document.getElementById("dojo-clock-{uid}");'
            f"function tick(){{if(!el)return;var s=Math.max(0,Math.ceil((end-Date.now())/1000));"
            f'if(s>0){{el.textContent={label}+" "+Math.floor(s/60)+":"+String(s%60).padStart(2,"0");setTimeout(tick,500);}}'
            f"else{{el.textContent={up};el.style.color=\"{RED}\";}}}}tick();}})();</script>")


def json_text(said: str) -> str:
    """A sentence as a JavaScript string literal inside HTML."""
    import json

    return json.dumps(said).replace("<", "\\u003c")
