import numpy as np


def speculative_verify(draft_tokens, q, p, u_accept, u_sample):
    """Verify k drafted tokens against the target model: speculative decoding's accept/reject step.

    Leviathan et al. / Chen et al. (2023). A small draft model proposed k tokens, drawing
    draft i from its distribution q[i]; the large target model scored the same positions in
    one pass and gave p. This step keeps a prefix of the drafts and adds one token, so that
    every emitted token is distributed exactly as the target model would have drawn it.

    Contract
    --------
    draft_tokens : array-like (k,) of ints in [0, V), k >= 0 (an empty list is fine). A
                   bool or float array is rejected (an empty one excepted: [] is k = 0).
    q            : array-like (k, V): q[i] is the draft's distribution draft i was drawn
                   from. Entries >= 0, each row summing to 1 within 1e-6.
    p            : array-like (k + 1, V), V >= 1: p[i] is the target's distribution at the
                   position of draft i; p[k] is the one after the last draft (the bonus).
                   Entries >= 0, each row summing to 1 within 1e-6.
    u_accept     : array-like (k,): uniform numbers in [0, 1), one per draft.
    u_sample     : a real in [0, 1) (a Python or NumPy int or float, never bool): the uniform
                   number for the one token drawn at the end.
    All computed in float64. The caller passes the randomness, so the answer is a
    deterministic function.

    For i = 0, 1, ..., k - 1: accept x_i = draft_tokens[i] iff

        u_accept[i] < p[i, x_i] / q[i, x_i]

    (probability min(1, p/q); strict, so a draft with p[i, x_i] = 0 is rejected even at
    u = 0). At the first rejection, at i: append the inverse CDF of the residual
    max(0, p[i] - q[i]) (entrywise) at u_sample, and stop: later drafts and u_accept are
    unused. If all k drafts are accepted: append the inverse CDF of p[k] at u_sample.

    The inverse CDF of weights w (w >= 0, not all 0) at u: with C_t = (w_0 + ... + w_t) / sum(w)
    in token-index order, the smallest t with u < C_t (strict, so a token of weight 0 is never
    drawn, also not at u = 0). The residual is normalised by its sum this way.

    Returns a 1-D integer array (any integer dtype): the accepted drafts, then the one token
    drawn; its length is 1 to k + 1. No input is modified.

    Raises ValueError (a subclass is fine), with a message a person can act on, when:
    - draft_tokens is not 1-D, is not of an integer dtype (bool or float; an empty one
      excepted), or has an entry outside [0, V);
    - q is not (k, V) or p is not (k + 1, V) (both 2-D, V >= 1, the same V);
    - q or p contains NaN or inf, a negative entry, or a row whose sum is off 1 by more
      than 1e-6;
    - q[i, x_i] == 0 for some draft i (the draft model cannot have drawn that token);
    - u_accept is not of shape (k,), contains NaN, or has an entry outside [0, 1);
    - u_sample is not a real in [0, 1).

    Left open (never tested): a u_accept[i] within 1e-9 of a positive ratio p[i, x_i] /
    q[i, x_i], or a u_sample within 1e-9 of a positive cumulative C_t of the distribution it
    is drawn from (rounding decides); a rejection whose residual has a mass below 1e-6 (for
    exact distributions it is at least q(x) - p(x) > 0, but rows summing to 1 only within
    1e-6 can make it vanish); a 0-d array as u_sample; a p[i, x_i] or q[i, x_i] below 1e-300
    (subnormal: u_accept[i] * q[i, x_i] < p[i, x_i] and the ratio round differently there).

    NumPy only: do not import torch, jax, tensorflow, scipy or sklearn.

    Speed: the judge makes a few hundred calls on small inputs. Together they may take 1 s of
    CPU per Hypothesis example (20 s in a practice run; the reference needs under 0.5 s), and
    one call at most 2 s of CPU; past that the answer is stopped as too slow. A loop over the
    drafts is fine; a Python loop over single entries of a row is not.
    """
    x = np.asarray(draft_tokens)
    if x.ndim != 1:
        raise ValueError(f"draft_tokens must be 1-D (k,), got shape {x.shape}")
    if x.size == 0:
        x = x.astype(np.int64)  # [] arrives as float64: k = 0 is allowed
    elif x.dtype.kind not in "iu":
        raise ValueError(f"draft_tokens must hold integers (token ids), got dtype {x.dtype}")
    k = x.shape[0]
    p = np.asarray(p, dtype=np.float64)
    if p.ndim != 2 or p.shape[0] != k + 1 or p.shape[1] < 1:
        raise ValueError(f"p must have shape (k + 1, V) = ({k + 1}, V) with V >= 1 for k = {k} drafts, "
                         f"got shape {p.shape}")
    V = p.shape[1]
    q = np.asarray(q, dtype=np.float64)
    if q.shape != (k, V):
        raise ValueError(f"q must have shape (k, V) = ({k}, {V}) (k drafts, p's V), got shape {q.shape}")
    for name, a in (("q", q), ("p", p)):
        if not np.isfinite(a).all():
            raise ValueError(f"{name} contains NaN or inf; each row must be a probability distribution")
        if (a < 0).any():
            raise ValueError(f"{name} has a negative entry ({a.min()}); probabilities are >= 0")
        off = np.abs(a.sum(axis=1) - 1.0)
        if (off > 1e-6).any():
            i = int(np.argmax(off))
            raise ValueError(f"row {i} of {name} sums to {a[i].sum()!r}, not 1 (within 1e-6)")
    if ((x < 0) | (x >= V)).any():
        raise ValueError(f"draft_tokens must lie in [0, V) = [0, {V}), got {x[(x < 0) | (x >= V)][0]}")
    rows = np.arange(k)
    drafted = q[rows, x]  # (k,) q[i, x_i]
    if (drafted == 0).any():
        i = int(np.flatnonzero(drafted == 0)[0])
        raise ValueError(f"q[{i}, {x[i]}] is 0: the draft model cannot have drawn token {x[i]} at draft {i}")
    u_accept = np.asarray(u_accept, dtype=np.float64)
    if u_accept.shape != (k,):
        raise ValueError(f"u_accept must have shape ({k},): one uniform per draft, got shape {u_accept.shape}")
    if not np.isfinite(u_accept).all() or ((u_accept < 0) | (u_accept >= 1)).any():
        raise ValueError("every u_accept must be a number in [0, 1)")
    if not _is_real(u_sample) or not 0 <= u_sample < 1:
        raise ValueError(f"u_sample must be a real in [0, 1) (never a bool), got {u_sample!r}")

    ratio = p[rows, x] / drafted                 # (k,) p[i, x_i] / q[i, x_i]
    accepted = np.cumprod(u_accept < ratio)      # 1 up to the first rejection, 0 from it on
    n = int(accepted.sum())                      # drafts accepted
    if n == k:
        w = p[k]                                 # all accepted: the bonus token from p[k]
    else:
        w = np.maximum(p[n] - q[n], 0.0)         # the residual at the first rejection
    cdf = np.cumsum(w)
    cdf /= cdf[-1]
    token = min(int((cdf <= u_sample).sum()), V - 1)  # the smallest t with u_sample < C_t
    return np.append(x[:n], token).astype(np.int64)


def _is_real(v) -> bool:
    """A Python or NumPy int or float, never bool."""
    return isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, (bool, np.bool_))
