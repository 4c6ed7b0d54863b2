"""``dojo watch``: re-judge a kata on every save; single keys from the terminal (``Keys``)."""

from __future__ import annotations

import os
import select
import time
from pathlib import Path

from dojo.commands.cli.check import offer_next, record_verdict
from dojo.commands.cli.common import Exit, current_kata, kata_arg, shown, styled, words
from dojo.commands.cli.show import next_hint
from dojo.catalogue.env import Env
from dojo.screens.render import line, verdict_lines
from dojo.state.state import Store, content_hash


class Keys:
    """Single key presses from a terminal (cbreak mode), or lines from a pipe."""

    def __init__(self, stream):
        self.fd = None
        self.saved = None
        self.closed = False
        try:
            self.fd = stream.fileno()
        except (AttributeError, OSError, ValueError):
            self.closed = True
            return
        if os.isatty(self.fd):
            import termios
            import tty

            self.saved = termios.tcgetattr(self.fd)
            tty.setcbreak(self.fd)

    def poll(self, timeout: float) -> str | None:
        if self.closed:
            time.sleep(timeout)
            return None
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return None
        data = os.read(self.fd, 1)
        if not data:
            self.closed = True  # end of input: keep watching, keys are simply gone
            return None
        key = data.decode(errors="ignore")
        return key if key.strip() else None

    def restore(self) -> None:
        if self.saved is not None:
            import termios

            termios.tcsetattr(self.fd, termios.TCSADRAIN, self.saved)


def file_signature(path: Path):
    """The hash of the file's bytes (None: no file), the one a saved verdict keeps."""
    return content_hash(path)


def cmd_watch(env: Env, args) -> int:
    from dojo.judge.runner import WarmJudge

    store = Store(env)
    store.load()
    kata = kata_arg(args.kata) if args.kata else current_kata(store)
    if kata is None:
        env.say(words("cli.watch.all-pass"))
        return Exit.OK
    judge = WarmJudge(env)
    keys = Keys(env.stdin)
    try:
        return watch_loop(env, store, judge, keys, kata, args.debounce)
    except KeyboardInterrupt:
        env.say("\n" + words("cli.watch.stopped"))
        return Exit.INTERRUPTED
    finally:
        keys.restore()


def watch_loop(env, store, judge, keys, kata, debounce: float) -> int:
    def announce(k):
        env.say(line(env, (words("cli.watch.watching", path=shown(env, env.kata_file(k))), "bold"),
                     words("cli.watch.keys")))

    announce(kata)
    path = env.kata_file(kata)
    judged = None  # signature of the content last judged
    passed = False
    nxt = None
    while True:
        key = keys.poll(0.05)
        if key in ("q", "Q"):
            env.say(words("cli.watch.bye"))
            return Exit.OK
        if key in ("h", "H"):
            if passed:
                env.say(styled(env, "cli.watch.no-hint", {"command": "keep"}, kata=kata.module,
                               command=f"`dojo hint {kata.module}`"))
            else:
                next_hint(env, store, kata)
        if key in ("n", "N") and passed and nxt is not None:
            kata, path, judged, passed, nxt = nxt, env.kata_file(nxt), None, False, None
            announce(kata)
            continue
        sig = file_signature(path)
        if sig == judged:
            continue
        env.say(line(env, (words("cli.watch.checking", time=time.strftime("%H:%M:%S", time.localtime(env.now()))),
                           "cyan")))
        # Debounce: editors often write a file in several steps; wait until it holds still.
        settled = time.monotonic()
        while time.monotonic() - settled < debounce:
            time.sleep(0.05)
            again = file_signature(path)
            if again != sig:
                sig, settled = again, time.monotonic()
        # A save while the judge runs stops it; a verdict is shown only for what the file holds.
        verdict = judge.judge(kata, path.parent, stale=lambda: file_signature(path) != sig)
        if verdict is None or file_signature(path) != sig:
            env.say(line(env, (words("cli.watch.saved-again"), "cyan")))
            continue
        judged = sig
        record_verdict(store, kata, verdict, env, sig)
        for said in verdict_lines(env, verdict, kata, shown(env, path)):
            env.say(said)
        passed = verdict.ok
        if passed:
            nxt = offer_next(env, store, kata)
            if nxt is not None and nxt.module != kata.module:
                env.say(words("cli.watch.press-n"))
        env.say()
