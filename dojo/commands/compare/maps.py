"""Section 2's pictures: the attention weights of the battery's small example, yours and the
reference's, and plain sentences for what they show.

``build_maps`` runs both on ``battery.map_inputs()`` and returns ``dojo.screens.heatmap.Map`` panels
(differing cells marked) for ``dojo/screens/heatmap.py`` to draw; ``diagnose`` names weight where it
must be 0 (a future leak, a masked key), a wrong-axis softmax, rows that do not sum to 1, NaN.
"""

from __future__ import annotations

from dojo.commands.compare.agreement import ATOL, RTOL, compare_case, split_outputs
from dojo.commands.compare.words import raised_text
from dojo.text.messages import t


def pick(outputs: list, panel):
    """The 2-D matrix ``panel`` draws from ``outputs``, or None when they do not hold one."""
    import numpy as np

    if panel.derive is not None:
        try:
            with np.errstate(all="ignore"):
                a = np.asarray(panel.derive(list(outputs)), dtype=np.float64)
        except Exception:  # outputs of the wrong shape or kind: nothing to draw
            return None
        return a if a.ndim == 2 else None
    index = panel.index
    a = outputs[index[0]]
    if not isinstance(a, np.ndarray):
        return None
    try:
        a = a[tuple(index[1:])] if len(index) > 1 else a
    except (IndexError, TypeError):
        return None
    return a if a.ndim == 2 else None


#: Terminal cells a heading line of the PNG holds before it wraps (``dojo/screens/figure.py`` MIN_WIDTH
#: fits them): 72 English characters, 36 Chinese ones (two cells each, as on a terminal).
HEADING_CHARS = 72


def heading_parts(kata, battery, lang: str | None = None) -> list[str]:
    """What the PNG's heading says, unwrapped: the kata (module and title), then the case the
    maps show (``battery.map_what``, e.g. "… causal mask, key 6 is padding"), in ``lang``
    (default: the tool's language). Joined by a space: the PNG's ``Title``."""
    from dojo.text import locale
    from dojo.catalogue.batteries import battery_text
    from dojo.text.messages import message, text

    lang = lang or locale.LANGUAGE
    first = text(message("compare.png.heading", kata=kata.module, title=locale.kata_title(kata, lang)), lang)
    return [first, battery_text(battery, "map_what", lang)]


def png_heading(kata, battery, width: int = HEADING_CHARS, lang: str | None = None) -> list[str]:
    """The PNG's heading, as the lines drawn: ``heading_parts`` wrapped, in ``lang`` (default:
    the tool's language; ``dojo.screens.figure.drawn_language`` says which one the PNG can draw).
    English wraps at spaces; another language at cells (``dojo.text.screen.wrap_text``: between
    Chinese characters, never before full-width punctuation)."""
    import textwrap

    from dojo.text import locale

    parts = heading_parts(kata, battery, lang)
    if (lang or locale.LANGUAGE) == "en":
        return [ln for part in parts for ln in textwrap.wrap(part, width, break_on_hyphens=False)]
    from dojo.text.screen import wrap_text

    return [ln for part in parts for ln in wrap_text(part, width)]


def build_maps(battery, ref_fn, yours, timeout: float, file_name: str, yours_broken: str | None):
    """The maps to draw, and the sentences that explain them as (colour, sentence): green when
    the maps agree, else yellow. A map's ``title`` is the battery's (English, as the PNG draws
    it in English); its ``label``, the terminal's (and a Chinese PNG's), is in the tool's language."""
    import numpy as np

    from dojo.catalogue.batteries import battery_text, panel_title
    from dojo.screens.heatmap import Map, differing
    from dojo.worker.isolate import call_here

    inputs = battery.map_inputs()
    ref = call_here(ref_fn, battery.map_inputs())
    ref_outs, _ = split_outputs(ref.value, battery)
    mine = None
    note = yours_broken
    your_outs = None
    if note is None:
        mine = yours.call(inputs, timeout)
        if mine.returned:
            your_outs, problem = split_outputs(mine.value, battery)
            note = problem
        elif mine.status == "raised":
            note = t("compare.maps.raised", raised=raised_text(mine, file_name))
        else:
            note = compare_case(ref, mine, battery, file_name, inputs)[1]
    maps, notes = [], []
    for panel in battery.panels(inputs):
        r = pick(ref_outs, panel)
        y = pick(your_outs, panel) if your_outs is not None else None
        panel_note = note or ""
        if your_outs is not None and y is None:
            panel_note = t("compare.maps.not-2d")
        elif y is not None and y.shape != r.shape:
            panel_note = t("compare.maps.shape", yours=str(y.shape), reference=str(r.shape))
        if y is not None:
            with np.errstate(all="ignore"):
                y = np.asarray(y).astype(np.float64)
        differ = differing(y, r, RTOL, ATOL)
        if battery.tolerance and differ is not None:  # the kata's own tolerance (dojo/catalogue/tolerances.py)
            from dojo.catalogue.tolerances import within

            differ = ~within(battery.tolerance, y, r, inputs)
        label = panel_title(battery, panel.title)
        maps.append(Map(panel.title, r, y, differ, panel.blocked, panel_note if y is None or differ is None else "",
                        label))
        if y is not None:
            notes += diagnose(label, r, y, differ, panel.blocked, battery_text(battery, "blocked_words"),
                              len(battery.panels(inputs)) > 1, panel.distribution)
    if note and your_outs is None:
        notes.append(("yellow", t("compare.maps.nothing", why=note)))
    return maps, notes


def diagnose(title, ref, yours, differ, blocked, blocked_words: str, prefix: bool,
             distribution: bool = True) -> list[tuple[str, str]]:
    """Plain sentences for what the picture shows, as (colour, sentence)."""
    import numpy as np

    def lead(id: str, **params) -> str:
        said = t(id, **params)
        return t("compare.maps.panel", title=title, text=said) if prefix else said

    if differ is None:
        return [("yellow", lead("compare.maps.cannot-compare", yours=str(yours.shape), reference=str(ref.shape)))]
    out = []
    bad = ~np.isfinite(yours)
    if bad.any():
        out.append(lead("compare.maps.nan", count=int(bad.sum())))
    if blocked is not None and blocked.shape == yours.shape:
        leak = blocked & (yours != 0) & np.isfinite(yours)
        if leak.any():
            out.append(lead("compare.maps.leak", count=int(leak.sum()),
                            largest=f"{float(np.max(np.abs(yours[leak]))):.3g}", blocked=blocked_words))
    with np.errstate(all="ignore"):
        rows_ok = not distribution or np.allclose(yours.sum(axis=1), 1.0, atol=1e-6)
        finite_cols = np.isfinite(yours).all(axis=0)  # a column of NaN (all blocked) says nothing
        cols_ok = finite_cols.any() and np.allclose(yours[:, finite_cols].sum(axis=0), 1.0, atol=1e-6)
    if not rows_ok and cols_ok:
        out.append(lead("compare.maps.columns"))
    elif not rows_ok and not bad.any():
        sums = yours.sum(axis=1)
        out.append(lead("compare.maps.rows", low=f"{float(sums.min()):.3g}", high=f"{float(sums.max()):.3g}"))
    n = int(differ.sum())
    if n and not out:
        out.append(lead("compare.maps.differ", count=n, total=differ.size))
    out = [("yellow", sentence) for sentence in out]
    if not n:
        out.append(("green", lead("compare.maps.agree")))
    return out
