"""Sleeps 3.8 s at import (under the 5 s idle limit) and ends its own process on every call, so
every call needs a fresh worker, which imports the file again: plain pytest ran 141 s until the
judge's backstop stopped it, blaming the judge ("not your fault"), and `dojo test` hit its 60 s
limit (a fourth hostile round, stop 51). After four re-imports slower than a second, the judge
starts no more workers for the file (dojo/worker/reloads.py): about 26 s. Light on CPU: the time
is spent asleep."""
KATA = "speculative_decoding"
EXPECT = {"pytest": "The judge stops calling it", "dojo test": "exited with status 0"}

import os
import time

time.sleep(3.8)


def speculative_verify(draft_tokens, q, p, u_accept, u_sample):
    os._exit(0)
