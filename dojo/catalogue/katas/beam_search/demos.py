"""The demonstrations behind the follow-ups of beam_search: HF's EOS rank rule against top-B
selection, why the early_stopping heuristic is not exact, and what the length penalty does."""

from __future__ import annotations

import numpy as np

from dojo.catalogue.demos import Shown, demo
from dojo.text.messages import t


def _say(slug: str, **params) -> str:
    """One line of a demonstration, in the tool's language (``kata.beam_search.demo.<slug>``)."""
    return t(f"kata.beam_search.demo.{slug}", **params)


#: EOS (0) is likely from every token: B hypotheses finish at step 2, better ones come later.
EARLY = np.array([[-2.0, -0.25, -3.0], [-0.5, -1.0, -0.25], [-0.5, -0.25, -1.0]])


def _search(lp, start, eos, B, max_len, alpha, stop_when_b_finished=False):
    """A compact beam search (HF's rule); with ``stop_when_b_finished``, HF's early_stopping=True.
    Returns (best tokens, best final score, the step it stopped at)."""
    V = lp.shape[0]
    seqs, raw, last, pool, step = [[]], np.zeros(1), np.array([start]), [], 0
    for step in range(1, max_len + 1):
        flat = (raw[:, None] + lp[last]).ravel()
        order = np.argsort(-flat, kind="stable")
        is_eos = order % V == eos
        for r in np.flatnonzero(is_eos[:B]):
            pool.append((flat[order[r]] / step ** alpha, seqs[order[r] // V] + [eos]))
        live = order[np.flatnonzero(~is_eos)[:B]]
        seqs, raw, last = [seqs[i // V] + [int(i % V)] for i in live], flat[live], live % V
        if stop_when_b_finished and len(pool) >= B:
            break
    else:
        pool += [(s / max_len ** alpha, q) for s, q in zip(raw, seqs)]
    best = max(pool, key=lambda h: h[0])
    return best[1], float(best[0]), step


@demo("beam_eos_rank")
def beam_eos_rank() -> Shown:
    lp = np.array([[-0.1, -2.0, -2.5], [-0.2, -1.0, -3.0], [-0.3, -2.0, -1.0]])  # EOS = 0 likely
    B, eos, V = 2, 0, 3
    raw, last = np.array([-0.5, -0.75]), np.array([1, 2])  # two live beams after step 1
    flat = (raw[:, None] + lp[last]).ravel()
    order = np.argsort(-flat, kind="stable")
    lines = [_say("rank-step", B=B, count=2 * B, eos=eos)]
    for r, i in enumerate(order[: 2 * B]):
        lines.append(_say("rank-candidate", rank=r, beam=int(i // V), token=int(i % V), raw=f"{flat[i]:.2f}"))
    is_eos = order % V == eos
    hf_finished, hf_live = int(is_eos[:B].sum()), int(min(B, (~is_eos).sum()))
    top_finished, top_live = int(is_eos[:B].sum()), int((~is_eos[:B]).sum())
    lines += [_say("rank-hf", finished=hf_finished, live=hf_live),
              _say("rank-top-b", finished=top_finished, live=top_live)]
    return Shown(lines, {"B": B, "hf_live": hf_live, "top_b_live": top_live, "hf_finished": hf_finished})


@demo("beam_early_stop")
def beam_early_stop() -> Shown:
    start, eos, B, max_len, alpha = 0, 0, 2, 6, 1.0
    full, full_score, _ = _search(EARLY, start, eos, B, max_len, alpha)
    early, early_score, stopped = _search(EARLY, start, eos, B, max_len, alpha, stop_when_b_finished=True)
    lines = [
        _say("stop-model", V=3, start=start, eos=eos, B=B, max_len=max_len, alpha=alpha),
        _say("stop-full", best=full, score=f"{full_score:.3f}"),
        _say("stop-true", best=early, score=f"{early_score:.3f}", step=stopped),
    ]
    return Shown(lines, {"full": full, "full_score": full_score, "early": early, "early_score": early_score,
                         "stopped": stopped, "max_len": max_len})


@demo("beam_length_penalty")
def beam_length_penalty() -> Shown:
    hypotheses = [([0], -1.0), ([2, 1, 0], -1.8), ([1, 2, 1, 2, 1], -2.5)]  # (tokens, raw score)
    lines = [_say("penalty-head")]
    for tokens, raw in hypotheses:
        lines.append(_say("penalty-hypothesis", tokens=tokens, length=len(tokens), raw=raw))
    best = {}
    for alpha in (0.0, 1.0, 2.0):
        finals = [raw / len(tokens) ** alpha for tokens, raw in hypotheses]
        i = int(np.argmax(finals))
        best[alpha] = len(hypotheses[i][0])
        lines.append(_say("penalty-alpha", alpha=alpha, best=hypotheses[i][0],
                          finals=", ".join(f"{f:.3f}" for f in finals)))
    return Shown(lines, {"best_length": best})
