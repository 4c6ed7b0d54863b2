import numpy as np


def paged_attention(q, k_pages, v_pages, block_table, context_len):
    """Causal attention for one sequence's n newest tokens against its paged KV cache (vLLM).

    The cache is not one (m, d) array but fixed-size pages from a shared pool; the sequence's
    block table lists, in order, which pages hold its tokens:

        logical key t (0 <= t < m) is  k_pages[block_table[t // page_size], t % page_size]
        (its value alike, in v_pages), where m = context_len
        query i sits at position p_i = m - n + i and may attend keys t <= p_i
        out = softmax(q kᵀ / sqrt(d_k)) v   over those m keys, future keys set to -inf first

    The causal mask is aligned to the bottom-right corner (torch's ``causal_lower_right(n, m)``):
    the n queries are the last n of the m tokens. With n == 1 it is one decoding step.

    Pages the table does not name, and slots at or past context_len (the unused end of the
    last page), are not part of the input: another sequence or stale data may fill them, NaN
    and inf included. They must change neither the result nor whether it raises.

    Contract
    --------
    q           : (n, d_k) queries of the n newest tokens          array-like, computed in
    k_pages     : (P, page_size, d_k) the pool of key pages          float64; every dimension
    v_pages     : (P, page_size, d_v) the pool of value pages        >= 1
    block_table : (L,) the sequence's page indices, in order: a 1-D integer array-like (a list
                  of ints is fine; bool or float is an error), every entry in [0, P)
    context_len : m, the number of tokens in the cache, the n new ones included: a Python int
                  or NumPy integer scalar (not bool, not float), n <= m <= L * page_size

    Returns out, shape (n, d_v), float64. No input is modified.

    Raises ValueError (a subclass is fine), with a message a person can act on, when:
    - q is not 2-D, k_pages or v_pages is not 3-D, or any of them has a zero dimension;
    - q and k_pages have different widths d_k, or k_pages and v_pages a different number of
      pages P or a different page_size;
    - block_table is not 1-D or not of an integer dtype, or any entry of it, used or not, is
      outside [0, P) (a negative index is an error, not Python's wrap-around);
    - context_len is not an int, or is < 1, < n or > L * page_size;
    - q, or a key or value slot the context uses (t < m), contains NaN or inf;
    - a score that takes part in the softmax overflows to inf.
    (Left open: a page listed twice in the table, an overflowing blocked (future) score, and a
    0-d array as context_len. Out of contract: |v| so large that a weighted sum overflows
    before it is divided by the row's sum.)

    Left open: a dot product of a query and a key that overflows although the score, divided
    by sqrt(d_k), is finite (where another order of the products gives a finite answer).
    Left open too: an allowed score whose exact value overflows to -inf (below -1.8e308).

    NumPy only: do not import torch, jax, tensorflow, scipy or sklearn.

    Speed: the judge makes a few hundred calls on small inputs. Together they may take 1 s of
    CPU per Hypothesis example (20 s in a practice run; the reference needs under 0.5 s), and
    one call at most 2 s of CPU; past that the answer is stopped as too slow. Loops over
    rows, heads or blocks are fine; a Python loop over single entries is not.
    """
    q = np.asarray(q, dtype=np.float64)
    k_pages = np.asarray(k_pages, dtype=np.float64)
    v_pages = np.asarray(v_pages, dtype=np.float64)
    if q.ndim != 2 or 0 in q.shape:
        raise ValueError(f"q must be 2-D (n, d_k) with no empty dimension, got shape {q.shape}")
    for name, a in (("k_pages", k_pages), ("v_pages", v_pages)):
        if a.ndim != 3 or 0 in a.shape:
            raise ValueError(f"{name} must be 3-D (P, page_size, d) with no empty dimension, got shape {a.shape}")
    n, d_k = q.shape
    num_pages, page_size, _ = k_pages.shape
    if k_pages.shape[2] != d_k:
        raise ValueError(f"q and k_pages must have the same width d_k, got {d_k} and {k_pages.shape[2]}")
    if v_pages.shape[:2] != k_pages.shape[:2]:
        raise ValueError(
            f"k_pages and v_pages must have the same number of pages and page size, "
            f"got {k_pages.shape[:2]} and {v_pages.shape[:2]}"
        )

    table = np.asarray(block_table)
    if table.ndim != 1 or table.dtype.kind not in "iu":
        raise ValueError(
            f"block_table must be a 1-D array of integer page indices, got shape {table.shape}, dtype {table.dtype}"
        )
    if table.size and (table.min() < 0 or table.max() >= num_pages):
        raise ValueError(f"every entry of block_table must be a page index in [0, {num_pages}), got {table.tolist()}")
    if isinstance(context_len, (bool, np.bool_)) or not isinstance(context_len, (int, np.integer)):
        raise ValueError(f"context_len must be an int, got {context_len!r} ({type(context_len).__name__})")
    m = int(context_len)
    capacity = table.size * page_size
    if not max(n, 1) <= m <= capacity:
        raise ValueError(
            f"context_len = {m} must satisfy n = {n} <= context_len <= len(block_table) * page_size = {capacity}"
        )

    if not np.isfinite(q).all():
        raise ValueError("q contains NaN or inf")
    t = np.arange(m)  # the logical positions of the cache
    pages, slots = table[t // page_size], t % page_size  # where each of them is stored
    blocks = [slice(a, min(a + BLOCK, m)) for a in range(0, m, BLOCK)]  # the cache, BLOCK tokens at a time

    allowed = np.tril(np.ones((n, m), dtype=bool), k=m - n)  # (n, m), bottom-right aligned
    scores = np.empty((n, m))
    for b in blocks:
        with np.errstate(over="ignore", invalid="ignore"):
            scores[:, b] = q @ _used(k_pages, pages[b], slots[b], "k_pages").T / np.sqrt(d_k)
    if not np.isfinite(scores[allowed]).all():
        raise ValueError("a score q·k/sqrt(d_k) overflowed; rescale q or the cached keys")
    scores = np.where(allowed, scores, -np.inf)  # future keys are -inf
    weights = np.exp(scores - scores.max(axis=1, keepdims=True))  # (n, m)
    weights /= weights.sum(axis=1, keepdims=True)
    out = np.zeros((n, v_pages.shape[2]))
    for b in blocks:
        out += weights[:, b] @ _used(v_pages, pages[b], slots[b], "v_pages")
    return out  # (n, d_v)


#: Tokens gathered at a time. Gathering all m keys (or values) at once copies the whole cache
#: per call, and a fresh multi-MiB copy costs more in page faults than the attention itself.
BLOCK = 512


def _used(pool, pages, slots, name):
    """The slots ``(pages, slots)`` of ``pool``, gathered in order. Only the slots the context
    uses are ever gathered and checked: the rest of the pool may hold anything."""
    gathered = pool[pages, slots]
    if not np.isfinite(gathered).all():
        raise ValueError(f"a slot of {name} that the context uses (t < context_len) contains NaN or inf")
    return gathered
