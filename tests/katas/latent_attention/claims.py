"""What each demonstration of latent_attention (its demos.py) claims, checked in its own numbers
(tests/tool/test_followups.py runs every demonstration with its claim): ``CLAIMS[name](result)``
is True or None when the claim holds, and False or raises when not."""


CLAIMS = {
    "mla_cache": lambda r: (  # the answer: 576 numbers instead of 32768, 57 times less  # the answer: 576 numbers instead of 32768, 57 times less
        r["per_token"]["mla"] == 576 and r["per_token"]["mha"] == 32768
        and round(r["total"]["mha"] / r["total"]["mla"]) == 57 and r["total"]["mla"] < r["total"]["gqa"]
    ),
    "mla_absorbed_decode": lambda r: (
        r["diff"] < 1e-12 * max(1.0, r["scale"]) and r["macs"]["absorbed"] * 10 < r["macs"]["explicit"]
    ),
}
