"""A worker's temporary folder is removed whatever the worker left in it (``dojo/worker/worker_folders.py``).

The hostile files (``tests/meta/hostile/``) lock folders with attributes as root; these run the
removal as an ordinary user, who has no override of a folder's permissions."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.tool.harness import REPO

AS_NOBODY = r'''
import os, sys, tempfile
sys.path.insert(0, sys.argv[2])
import worker_folders  # a copy: this user may not read the checkout
folder = tempfile.mkdtemp(prefix="dojo-worker-999999-", dir=sys.argv[2])
os.makedirs(os.path.join(folder, "locked", "inner"))
with open(os.path.join(folder, "locked", "inner", "kept.txt"), "w") as f:
    f.write("x")
os.chmod(os.path.join(folder, "locked", "inner"), 0)  # what a worker can do: chmod is no Landlock right
os.chmod(os.path.join(folder, "locked"), 0)
os.chmod(folder, 0)
print(worker_folders.remove(folder), os.path.lexists(folder))
'''


@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("setpriv"), reason="needs root to run as another user")
def test_a_folder_chmodded_to_000_is_removed_by_an_ordinary_user():
    """A right softmax that chmods folders in its worker folder to 000 left them for good where
    the judge ran as an ordinary user: every later sweep said "could not remove" (stop 53's
    hostile round)."""
    where = Path(tempfile.mkdtemp(prefix="dojo-test-nobody-", dir="/tmp"))  # a folder that user can reach
    try:
        shutil.copy(REPO / "dojo" / "worker" / "worker_folders.py", where / "worker_folders.py")
        os.chmod(where, 0o755)
        os.chown(where, 65534, 65534)
        proc = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                               sys.executable, "-I", "-c", AS_NOBODY, "", str(where)],
                              capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL, cwd="/")
    finally:
        for folder, _, _ in os.walk(where):  # root may: whatever the run left
            os.chmod(folder, 0o700)
        shutil.rmtree(where)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.split() == ["True", "False"] and "could not remove" not in proc.stderr, proc.stdout + proc.stderr
