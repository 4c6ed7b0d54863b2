"""Children of the warm judge prepared ahead of the request they will serve.

A forked pytest child spends its first 0.08-0.15 s (more on a busy machine) before it runs a
single property: parsing its arguments, loading plugins, configuring, importing the kata's
test module and building its items. None of that depends on the candidate's file, so after a
verdict the warm judge (``dojo/judge/judge_server.py``) forks, for each shard it just served
(from the second request like it on: a checkout judged once prepares nothing), a child that
does all of it and then waits at its gate, just before the kata's file is
checked and its properties run. The next request with the same arguments and environment
(but for the run's seed and where its report and output go) opens the gate instead of forking
afresh; anything else gets a fresh child, as before.

- **Nothing stale.** Everything a child prepares comes from its arguments, its environment
  and the judge's files: the first two must match the request's exactly, and a changed judge
  means another warm judge. What a run takes from elsewhere (the run's seed, the language
  ``dojo lang`` saved) is chosen again at the gate (``tests/plugin/options.py``'s ``per_run``).
  The candidate's file is read only after the gate.
- **Output.** A prepared child writes nothing before its gate (``--no-header``, ``-q``, and its
  output goes nowhere); at the gate its output becomes the request's log. Warm children run
  with ``--capture=no`` (the properties print nothing: the candidate's output comes back from
  the worker), so that no saved copy of the old output survives the switch.
- **Bounded.** At most ``MAX_READY`` children wait, the oldest goes first; they die with the
  server, and each holds only its own descriptors.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import sys

#: Prepared children waiting at once (two shards of two katas).
MAX_READY = 4
#: Request keys remembered, to prepare only for requests that come again.
REMEMBERED = 64
#: What may differ between the request a child was prepared for and the one it serves.
PER_RUN_ENV = ("DOJO_RUN_SEED",)
PER_RUN_ARGS = ("--dojo-json=",)
#: Added to every warm child's arguments (see the module's docstring).
WARM_ARGS = ("--capture=no",)


def child_env(request_env: dict) -> dict:
    """A child's environment: the client's, but with the server's sandbox (its zygote) instead
    of the client's, and no tie to the client's life (the server kills a child whose client
    hangs up)."""
    env = {k: str(v) for k, v in request_env.items() if not k.startswith(("DOJO_ZYGOTE", "DOJO_DIE_WITH"))}
    zygote = os.environ.get("DOJO_ZYGOTE")
    if zygote:
        env["DOJO_ZYGOTE"] = zygote
    return env


def key_of(request: dict) -> str:
    """What a prepared child must share with the request it serves."""
    args = [a for a in request["args"] if not a.startswith(PER_RUN_ARGS)]
    env = {k: v for k, v in child_env(request["env"]).items() if k not in PER_RUN_ENV}
    return json.dumps([request["cwd"], args, sorted(env.items())])


class Gate:
    """The prepared child's plugin: wait for the request before the kata's file is checked."""

    def __init__(self, control: socket.socket):
        self.control = control

    def _go(self) -> dict:
        from dojo.judge.judge_key import lines

        try:
            go = next(lines(self.control), None)
        except (OSError, ValueError):
            go = None
        self.control.close()
        if not isinstance(go, dict):  # the server went, or chose another child: end quietly
            os._exit(0)
        return go

    def pytest_collection_modifyitems(self, session, config, items):  # a wrapper, set below
        from dojo.judge.warm_up import local_constants

        local_constants()  # the kata's test module, just imported: read now, not after the gate
        go = self._go()
        out = os.open(go["log"], os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_NOFOLLOW, 0o600)
        sys.stdout.flush()
        sys.stderr.flush()
        os.dup2(out, 1)
        os.dup2(out, 2)
        os.close(out)
        os.environ.clear()
        os.environ.update(go["env"])
        for arg in go["args"]:
            if arg.startswith("--dojo-json="):
                config.option.dojo_json = arg.split("=", 1)[1]
        options = sys.modules.get("tests.plugin.options")
        if options is not None and hasattr(options, "per_run"):
            options.per_run(config)
        return (yield)


def _as_wrapper() -> None:
    import pytest

    Gate.pytest_collection_modifyitems = pytest.hookimpl(wrapper=True, tryfirst=True)(
        Gate.pytest_collection_modifyitems)


_as_wrapper()


class Ready:
    """The server's side: the prepared children waiting at their gates."""

    def __init__(self):
        self.waiting: dict[str, tuple[int, socket.socket]] = {}  # key -> (pid, control)
        self.times: dict[str, int] = {}  # key -> how many requests had it (the last few keys)

    def asked(self, request: dict) -> None:
        k = key_of(request)
        self.times[k] = self.times.pop(k, 0) + 1
        while len(self.times) > REMEMBERED:
            del self.times[next(iter(self.times))]

    def repeated(self, request: dict) -> bool:
        """Whether requests like this one came more than once: only then is a child prepared
        for the next (a checkout judged once, as the test suite's sandboxes are, costs nothing)."""
        return self.times.get(key_of(request), 0) >= 2

    def fds(self) -> list[int]:
        return [control.fileno() for _, control in self.waiting.values()]

    def take(self, request: dict) -> int | None:
        """The pid of a prepared child that now serves ``request``; None if there is none."""
        entry = self.waiting.pop(key_of(request), None)
        if entry is None:
            return None
        pid, control = entry
        try:
            done, _ = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            done = pid
        if done:
            control.close()
            return None
        go = {"log": request["log"], "args": request["args"], "env": child_env(request["env"])}
        try:
            control.sendall((json.dumps(go) + "\n").encode())
        except OSError:
            _kill(pid)
            return None
        finally:
            control.close()
        return pid

    def add(self, request: dict, pid: int, control: socket.socket) -> None:
        while len(self.waiting) >= MAX_READY:
            oldest = next(iter(self.waiting))
            self.drop(oldest)
        self.waiting[key_of(request)] = (pid, control)

    def has(self, request: dict) -> bool:
        return key_of(request) in self.waiting

    def drop(self, k: str) -> None:
        pid, control = self.waiting.pop(k)
        control.close()
        _kill(pid)

    def forget(self, pid: int) -> None:
        """A child that ended while waiting (reaped elsewhere)."""
        for k, (p, control) in list(self.waiting.items()):
            if p == pid:
                control.close()
                del self.waiting[k]

    def close(self) -> None:
        for k in list(self.waiting):
            self.drop(k)


def _kill(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except OSError:
        pass
