"""Every call raises RuntimeError with a lone surrogate (U+D800) in its message: the worker sends
it as the JSON escape \\ud800, and the str it becomes cannot be encoded as UTF-8. `dojo test`
ended "internal error … UnicodeEncodeError" where it printed the first failure (a fourth hostile
round, stop 51); the message is shown with the surrogate spelled out."""
KATA = "softmax"
EXPECT = "not finished yet \\ud800"  # the verdict must say this


def softmax(x, axis=-1):
    raise RuntimeError("not finished yet \ud800 (a lone surrogate)")
