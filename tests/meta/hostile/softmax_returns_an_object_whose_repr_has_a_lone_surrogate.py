"""Returns an object whose repr ends in a lone surrogate (U+DFFF): `dojo test`, `dojo compare` and
`--json -` ended "internal error" (UnicodeEncodeError) (stop 53's hostile round). A returned
object's type and repr are now spelled out as what the code printed is."""
KATA = "softmax"
ROUTE = "dojo test"  # the screen is what broke
EXPECT = "should be a NumPy array, got Answer: softmax result \\udfff"  # what the verdict must say

class Answer:
    def __repr__(self):
        return "softmax result \udfff"


def softmax(x, axis=-1):
    return Answer()
