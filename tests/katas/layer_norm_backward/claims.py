"""What each demonstration of layer_norm_backward (its demos.py) claims, checked in its own numbers
(tests/tool/test_followups.py runs every demonstration with its claim): ``CLAIMS[name](result)``
is True or None when the claim holds, and False or raises when not."""

CLAIMS = {
    # the answer: one pass off by about 1e-4 relative, two passes by far less
    "layer_norm_one_pass": lambda r: r["one_pass_error"] > 1e-6 and r["two_pass_error"] < 1e-9,
    # the answer: rows of d_x sum to 0 up to rounding, not without the - mean(g) term;
    # d_x . xhat is r g . xhat eps / (var + eps), small but not 0
    "layer_norm_gradient_identities": lambda r: (
        r["row_sums"] < 1e-12 < 0.1 < r["without_mean"]
        and abs(r["along_xhat"] - r["predicted"]) <= 1e-9 * max(1.0, r["predicted"])
        and r["along_xhat"] < 1e-3 * r["d_x_max"]
    ),
}
