"""``dojo check`` (every kata) and ``dojo test`` (one): judge, record the verdict, offer the next."""

from __future__ import annotations

from dojo.text import locale, screen
from dojo.catalogue import registry
from dojo.commands.cli.common import Exit, UsageError, current_kata, kata_arg, next_kata, shown, styled, words
from dojo.commands.cli.progress import progress_table
from dojo.catalogue.env import Env
from dojo.screens.render import line, status_text, verdict_lines
from dojo.state.state import Store, content_hash


def record_verdict(store: Store, kata: registry.Kata, verdict, env: Env, digest: str | None) -> None:
    """Keep ``verdict`` as the kata's progress, with ``digest``: the hash of the bytes judged
    (``content_hash`` taken before the judge read the file). A verdict is shown only while the
    file still has that hash (``Store.verdict_now``)."""
    entry = store.kata(kata.module)
    entry["verdict"] = {**verdict.summary(), "at": env.now(), "sha256": digest}
    if verdict.ok:
        entry["solved"] = True
    store.save()


def cmd_check(env: Env, args) -> int:
    from dojo.judge.runner import judge

    store = Store(env)
    store.load()
    all_ok = True
    n = len(registry.KATAS)
    for i, k in enumerate(registry.KATAS, 1):
        head = words("cli.check.judging", i=i, n=n, kata=k.module)
        print(head, end="", file=env.stdout, flush=True)
        digest = content_hash(env.kata_file(k))
        verdict = judge(env, k, env.kata_file(k).parent)
        record_verdict(store, k, verdict, env, digest)
        all_ok &= verdict.ok
        said = [" ", *status_text(env, verdict.summary()).runs, f"  ({verdict.seconds:.1f} s)"]
        if screen.columns(env) is None:
            env.say(line(env, *said))
        else:  # on a terminal the whole line again, from its start, fitted to the width
            print("\r", end="", file=env.stdout)
            env.say(line(env, head, *said, hang=len(f"[{i}/{n}] ")))
    env.say()
    progress_table(env, store)
    return Exit.OK if all_ok else Exit.FAILED


def cmd_test(env: Env, args) -> int:
    kata = kata_arg(args.kata) if args.kata else current_kata(Store(env))
    if kata is None:
        raise UsageError(words("usage.no-current-kata", command="test"))
    path = env.kata_file(kata)
    verdict, store = judge_and_record(env, kata, seed=getattr(args, "seed", None))
    json_to = getattr(args, "json_to", None)
    if json_to == "-":
        write_results(env, verdict, kata, json_to)
        return exit_code(verdict)
    for said in verdict_lines(env, verdict, kata, shown(env, path)):
        env.say(said)
    if verdict.ok:
        offer_next(env, store, kata)
    elif verdict.state == "failing":
        env.say(styled(env, "cli.test.stuck", {"hint": "keep", "watch": "keep"},
                       hint=f"`{locale.command('hint', kata.module)}`", watch=f"`dojo watch {kata.module}`"))
    if json_to:  # after the screen: a file that cannot be written loses nothing of the verdict
        write_results(env, verdict, kata, json_to)
    return exit_code(verdict)


def judge_and_record(env: Env, kata: registry.Kata, seed: int | None = None):
    """Judge ``kata``'s file and keep the verdict as its progress: what ``dojo test`` does
    before it shows anything (the notebook's ``%%kata`` runs this too, in a child of its
    kernel). ``seed``: replay that run. Returns the verdict and the store it was recorded in."""
    from dojo.judge.runner import judge

    path = env.kata_file(kata)
    digest = content_hash(path)
    verdict = judge(env, kata, path.parent, seed=seed)
    store = Store(env)  # read after the judge: a hint taken meanwhile is kept
    record_verdict(store, kata, verdict, env, digest)
    return verdict, store


def exit_code(verdict) -> int:
    if verdict.state == "error":
        return Exit.INTERNAL
    return Exit.OK if verdict.ok else Exit.FAILED


def write_results(env: Env, verdict, kata: registry.Kata, to: str) -> None:
    """exercism's results.json: on standard output for ``-``, else to the file (atomically)."""
    import json
    from pathlib import Path

    from dojo.screens.results import results
    from dojo.state.state import atomic_write_text

    data = json.dumps(results(verdict, kata), indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    if to == "-":
        env.stdout.write(data)
        env.stdout.flush()
    else:
        atomic_write_text(Path(to), data, env)


def offer_next(env: Env, store: Store, kata: registry.Kata) -> registry.Kata | None:
    nxt = next_kata(store)
    if nxt is None:
        env.say(line(env, (words("cli.offer.last"), "green"),
                     *styled(env, "cli.offer.try", {"command": "keep"}, command="`dojo interview`").runs))
    else:
        env.say(styled(env, "cli.offer.next", {"kata": "bold", "command": "keep"}, kata=nxt.module,
                       title=locale.kata_title(nxt), command=f"`dojo show {nxt.module}`"))
    return nxt
