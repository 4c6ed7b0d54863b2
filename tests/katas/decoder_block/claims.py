"""What each demonstration of decoder_block (its demos.py) claims, checked in its own numbers
(tests/tool/test_followups.py runs every demonstration with its claim): ``CLAIMS[name](result)``
is True or None when the claim holds, and False or raises when not."""

CLAIMS = {
    # top-left hides cached keys from every query; bottom-right lets query i see p + i + 1 keys
    "decoder_block_mask_corner": lambda r: (
        r["bottom_right_seen"] == [r["p"] + i + 1 for i in range(r["n"])]
        and r["top_left_seen"] == [i + 1 for i in range(r["n"])]
    ),
    # eps inside or outside the sqrt: the same at rms 1, tens of percent apart at rms 1e-3
    "decoder_block_eps": lambda r: r["gap_at_rms_1"] < 1e-5 and r["gap_at_rms_1e-3"] > 0.2,
    # SwiGLU at d_ff = 8/3 d has the parameters of a ReLU MLP at 4 d; LLaMA's 11008 is 8/3 * 4096 rounded up to 256
    "decoder_block_swiglu_params": lambda r: (
        r["swiglu"] == r["relu"] and r["llama_d_ff"] == 11008 and r["llama_d_ff"] % 256 == 0
    ),
    # 0.5 MiB a token in float16, 2 GiB for 4096 tokens; 8 kv heads: 4 times less
    "decoder_block_cache_bytes": lambda r: (
        r["per_token"] == 2**19 and r["sequence"] == 2 * 2**30 and r["per_token"] == 4 * r["per_token_gqa"]
    ),
}
