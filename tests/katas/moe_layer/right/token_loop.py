"""One token at a time: sort its logits, take the softmax over the chosen logits, sum its experts."""
import numpy as np


def moe_layer(x, w_router, w1, w2, top_k):
    if type(top_k) is not int and not isinstance(top_k, np.integer):  # bool's type is bool, not int
        raise ValueError(f"top_k must be an int, got {type(top_k).__name__}")
    arrays = {}
    for name, a, rank in (("x", x, 2), ("w_router", w_router, 2), ("w1", w1, 3), ("w2", w2, 3)):
        a = np.array(a, dtype=np.float64)  # a copy: nothing the caller owns is touched
        if a.ndim != rank or a.size == 0:
            raise ValueError(f"{name} must be a non-empty {rank}-D array, got shape {a.shape}")
        arrays[name] = a
    x, w_router, w1, w2 = arrays.values()
    n, d_model = x.shape
    E, d_ff = w_router.shape[1], w1.shape[-1]
    expected = {"w_router": (d_model, E), "w1": (E, d_model, d_ff), "w2": (E, d_ff, d_model)}
    for name, shape in expected.items():
        if arrays[name].shape != shape:
            raise ValueError(f"{name} has shape {arrays[name].shape}, expected {shape}")
    if not 1 <= top_k <= E:
        raise ValueError(f"top_k = {top_k} is outside [1, {E}]")
    for name, a in arrays.items():
        if np.isnan(a).any() or np.isinf(a).any():
            raise ValueError(f"{name} has a NaN or an infinity")

    out = np.empty((n, d_model))
    probs = np.empty((n, E))
    counts = np.zeros(E)
    for i in range(n):
        with np.errstate(over="ignore", invalid="ignore"):
            z = x[i] @ w_router
        if not np.all(np.isfinite(z)):
            raise ValueError(f"token {i}'s router logits overflow")
        e_z = np.exp(z - np.max(z))
        probs[i] = e_z / np.sum(e_z)
        order = sorted(range(E), key=lambda e: (-z[e], e))[:top_k]  # ties: lower index first
        counts[order] += 1
        chosen = z[order]
        g = np.exp(chosen - chosen.max())
        g /= g.sum()
        acc = np.zeros(d_model)
        with np.errstate(over="ignore", invalid="ignore"):
            for gate, e in zip(g, order):
                acc = acc + gate * (np.maximum(x[i] @ w1[e], 0) @ w2[e])
        out[i] = acc
    if not np.all(np.isfinite(out)):
        raise ValueError("the output overflows")
    aux = E * np.dot(counts / n, probs.mean(axis=0))
    return out, float(aux)
