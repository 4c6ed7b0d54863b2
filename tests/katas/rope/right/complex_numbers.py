"""Treats each pair as a complex number a + ib and multiplies it by exp(i p theta)."""
import numpy as np


def apply_rope(x, positions, base=10000.0, interleaved=False):
    x = np.asarray(x, dtype=np.float64)
    if x.ndim != 2 or 0 in x.shape or x.shape[1] % 2:
        raise ValueError(f"x must be 2-D, non-empty, of even width; got shape {x.shape}")
    if not np.all(np.isfinite(x)):
        raise ValueError("x must be finite")
    n, d = x.shape
    p = np.asarray(positions)
    if p.shape != (n,) or p.dtype.kind not in "iu" or np.any(p < 0):
        raise ValueError("positions must be n non-negative integers")
    if isinstance(base, (str, bytes)):  # float() would take "10000"
        raise ValueError("base must be a number")
    try:
        b = float(base)
    except (TypeError, ValueError):
        raise ValueError("base must be a number") from None
    if not (np.isfinite(b) and b > 0):
        raise ValueError("base must be finite and positive")
    freqs = 1.0 / b ** (np.arange(0, d, 2) / d)
    turn = np.exp(1j * np.outer(p.astype(np.float64), freqs))
    if interleaved:
        z = (x[:, 0::2] + 1j * x[:, 1::2]) * turn
        return np.stack([z.real, z.imag], axis=-1).reshape(n, d)
    z = (x[:, : d // 2] + 1j * x[:, d // 2 :]) * turn
    return np.concatenate([z.real, z.imag], axis=1)
