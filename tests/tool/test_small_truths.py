"""Small untruths and noise, each fixed where it came from (issue 20).

Which bug each test catches:
- a label said twice ("importing softmax.py: importing softmax.py was still computing", "breaks
  NumPy-only rule: NumPy only: …"): the account repeated what its label already says;
- sizes in powers of 1024 called KB and MB while the judge says MiB (flash's bound read
  "16 MiB" in `dojo test` and "16.0 MB" in `dojo compare`);
- "Threads: 2 (NumPy's OpenBLAS), torch 2.", whose end reads like torch's version.
"""

from __future__ import annotations

from dojo.commands.clean import size_text
from dojo.commands.compare.report import threads_text
from dojo.commands.compare.words import human_bytes

SLEEPS_AT_IMPORT = "import time\n\ntime.sleep(3600)\n\n\ndef softmax(x, axis=-1):\n    return x\n"
IMPORTS_TORCH_BY_A_COMPUTED_NAME = ('import importlib\n\nimport numpy as np\n\nimportlib.import_module("to" + "rch")\n\n\n'
                                    'def softmax(x, axis=-1):\n    return np.asarray(x)\n')


def test_a_file_that_hangs_on_import_names_the_import_once(sandbox):
    sandbox.write_kata("softmax", SLEEPS_AT_IMPORT)
    r = sandbox.run("test", "softmax")
    assert r.code == 1, r.out + r.err
    line = next(ln for ln in r.out.splitlines() if "timed out" in ln)
    assert line == ("  timed out: importing softmax.py stopped computing: it waited 5 s without using the CPU "
                    "(time.sleep, a lock, input(), a blocking read?)")


def test_a_forbidden_import_at_run_time_reads_like_one_found_in_the_source(sandbox):
    """The import hook (an import the source check cannot see) says what the source check says."""
    sandbox.write_kata("softmax", IMPORTS_TORCH_BY_A_COMPUTED_NAME)
    r = sandbox.run("test", "softmax")
    assert r.code == 1, r.out + r.err
    assert ("  breaks NumPy-only rule: softmax.py imports torch at line 5; a kata may import NumPy and nothing "
            "like it (torch, jax, jaxlib, tensorflow, scipy … are not allowed).") in r.out.splitlines()
    c = sandbox.run("compare", "softmax", "--no-speed")
    assert "NumPy only:" not in c.out and "breaks the NumPy-only rule: softmax.py imports torch at line 5;" in c.out


def test_sizes_in_powers_of_1024_are_named_kib_mib_gib():
    assert human_bytes(16 * 2**20) == "16.0 MiB"
    assert human_bytes(519 * 1024 + 100) == "519.1 KiB"
    assert human_bytes(3 * 2**30) == "3.0 GiB"
    assert human_bytes(900) == "900 B"
    assert size_text(400) == "400 bytes"
    assert size_text(2**20 + 2**19) == "1.5 MiB"


def test_the_thread_counts_say_whose_they_are():
    said = threads_text({"numpy": 1, "source": "one BLAS thread in each worker", "torch": 1})
    assert said == "Threads: 1 for NumPy (one BLAS thread in each worker), 1 for torch."
    assert threads_text({"numpy": 1, "source": "one BLAS thread"}) == "Threads: 1 for NumPy (one BLAS thread)."
