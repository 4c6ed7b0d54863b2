"""A realistic bug that passed every property (stop 54's blind hostile round):
it stops once B hypotheses are finished and none of the live ones can beat them at length
max_len: a bound that holds for length_penalty >= 0 only, so at -1 it stops too early. The
no-early-stop property drew penalties of 0 and above.
The draw is there now; this file keeps it caught."""
KATA = "beam_search"
ROUTE = "dojo test"
EXPECT = "is wrong"  # what the verdict must say

import numpy as np


def beam_search(log_probs, start, eos, beam_width, max_len, length_penalty=0.0):
    """Beam search over a bigram model, with Hugging Face's rule for finished hypotheses.

    Contract
    --------
    log_probs      : array-like (V, V), V >= 1, entries finite and <= 0; computed in float64.
                     log_probs[a, b] = log P(next = b | previous = a) (rows need not be
                     normalised).
    start, eos     : ints in [0, V) (a Python or NumPy integer, never bool); start == eos is
                     allowed. start is the token before the first one; it is not part of a
                     hypothesis.
    beam_width B   : an int >= 1.
    max_len        : an int >= 1, the most tokens a hypothesis may have.
    length_penalty : alpha, a finite real (a Python or NumPy int or float, never bool).

    A hypothesis's tokens exclude start; its length counts every token, EOS included; its raw
    score is the left-to-right sum of its transitions' log-probs (start -> first token -> ...).

    Search: live = [the empty hypothesis, raw 0, last token start]. For steps t = 1..max_len,
    while live is not empty:
    - the candidates are every live beam extended by every token (|live| * V of them);
    - rank them by raw score descending, ties to the earlier beam (live order), then to the
      lower token (a stable sort of the flattened (beam, token) scores);
    - going down the rank: a candidate ending in eos finishes (length t) iff its rank (0-based,
      counted over all candidates) is < B, and is dropped otherwise; every other candidate
      becomes a new live beam, in rank order, until there are B of them (HF's BeamSearchScorer).
    After step max_len, the live beams are added as unfinished hypotheses (length max_len),
    each with its rank in step max_len.

    Final score = raw / length ** alpha (alpha > 0 favours long hypotheses); during the search
    live beams are ranked by raw scores only. The result is the best min(B, number of
    hypotheses) of all finished and unfinished hypotheses by final score descending, ties to the
    earlier step, then to the lower rank in that step. No stopping rule is part of the contract:
    the result is the one defined by running to max_len (HF's early_stopping heuristics stop
    too early and are wrong answers).

    Returns ``(sequences, scores)``: sequences a list of hypotheses, each a list of ints or a
    1-D integer array (start excluded, EOS kept), best first; scores a 1-D float64 array of
    their final scores. No input is modified.

    Raises ValueError (a subclass is fine), with a message a person can act on, when:
    - log_probs is not 2-D and square, or is empty;
    - log_probs contains NaN, inf or -inf, or a positive entry;
    - start or eos is not an int in [0, V);
    - beam_width or max_len is not an int >= 1;
    - length_penalty is not a finite real.

    Left open (never tested): two compared scores (raw ones in a step's rank, final ones at the
    end) within 1e-9 of each other but not equal in float64 in every summation order.

    NumPy only: do not import torch, jax, tensorflow, scipy or sklearn.

    Speed: the judge makes a few hundred calls, one of V, B and max_len up to 128 in some, and
    one call with V = 1024, B = 8, max_len = 32. Together they may take 1 s of CPU per
    Hypothesis example, and one call at most 2 s of CPU; past that the answer is stopped as too
    slow. Rank each step's candidates with NumPy; a Python loop over the steps, the beams or
    the first 2B ranks of a step is fine, one over all B V candidates of every step is not.
    """
    lp = np.asarray(log_probs, dtype=np.float64)
    if lp.ndim != 2 or lp.shape[0] != lp.shape[1] or lp.size == 0:
        raise ValueError(f"log_probs must be a non-empty square 2-D array (V, V), got shape {lp.shape}")
    V = lp.shape[0]
    if not np.isfinite(lp).all():
        raise ValueError("log_probs contains NaN, inf or -inf; every log-prob must be finite "
                         "(use a large negative number for an impossible transition)")
    if (lp > 0).any():
        raise ValueError(f"log_probs has a positive entry ({lp.max()!r}); log-probabilities are <= 0")
    for name, value in (("start", start), ("eos", eos)):
        if not (_is_int(value) and 0 <= value < V):
            raise ValueError(f"{name} must be an int in [0, {V}), got {value!r}")
    for name, value in (("beam_width", beam_width), ("max_len", max_len)):
        if not (_is_int(value) and value >= 1):
            raise ValueError(f"{name} must be an int >= 1, got {value!r}")
    if not (_is_real(length_penalty) and np.isfinite(length_penalty)):
        raise ValueError(f"length_penalty must be a finite real, got {length_penalty!r}")
    B, eos, alpha = int(beam_width), int(eos), float(length_penalty)

    seqs = [[]]                       # the live beams' tokens, in live order
    raw = np.zeros(1)                 # their raw scores
    last = np.array([int(start)])     # their last tokens
    pool = []                         # (final score, step, rank, tokens) of every hypothesis
    for t in range(1, int(max_len) + 1):
        cand = raw[:, None] + lp[last]                 # (live, V): left-to-right sums
        flat = cand.ravel()
        order = np.argsort(-flat, kind="stable")       # ties: earlier beam, then lower token
        tokens = order % V
        is_eos = tokens == eos
        for rank in np.flatnonzero(is_eos[:B]):        # an EOS candidate finishes iff rank < B
            i = order[rank]
            pool.append((flat[i] / t ** alpha, t, int(rank), seqs[i // V] + [eos]))
        keep = np.flatnonzero(~is_eos)[:B]             # the first B others stay live
        chosen = order[keep]
        seqs = [seqs[i // V] + [int(i % V)] for i in chosen]
        raw, last = flat[chosen], chosen % V
        if t == max_len:
            for rank, i, s in zip(keep, chosen, seqs):
                pool.append((flat[i] / t ** alpha, t, int(rank), s))
        if not seqs:
            break
        # Early stop: once B hypotheses have finished, stop when no live beam can still beat the
        # B-th best of them. Raw scores only fall, and the best a live beam can reach is its raw
        # score divided by the longest length it could have (max_len).
        finished = sorted((h[0] for h in pool), reverse=True)
        if len(finished) >= B and t < max_len:
            bound = float(raw.max()) / float(max_len) ** alpha
            if finished[B - 1] >= bound:
                break
    pool.sort(key=lambda h: (-h[0], h[1], h[2]))
    best = pool[:B]
    return [h[3] for h in best], np.array([h[0] for h in best], dtype=np.float64)


def _is_int(v) -> bool:
    """A Python or NumPy integer, never bool."""
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def _is_real(v) -> bool:
    """A Python or NumPy int or float, never bool."""
    return isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, (bool, np.bool_))
