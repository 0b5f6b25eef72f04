"""The `cardsmith` command line's entry point.

The commands and their click group are in `cardsmith.commands.group`. A command run again on
unchanged inputs is answered first, from its record (`cardsmith.quick`), without importing click.
`render` and `pdf` walk each set of input files once (`freshness.one_look`).
"""

from __future__ import annotations

import gc
import sys


def main(argv: list[str] | None = None) -> None:
    """Entry point: user errors print as plain messages with a non-zero exit, never a traceback."""
    from cardsmith import freshness, quick

    args = sys.argv[1:] if argv is None else list(argv)
    short = args[:1] in (["render"], ["pdf"])  # these look at the same files several times: once is enough
    look, thresholds = freshness.one_look(), gc.get_threshold()
    if short:
        look.__enter__()
        # Most of a one-card rebuild is importing modules, and the cycle collector runs every 700 new
        # objects, going over all of them again and again. Refcounting frees what these commands drop;
        # render's workers collect as usual (`cardsmith.render._init_worker`).
        gc.set_threshold(100_000, 50, 50)
    try:
        status = quick.answer(args)
        if status is not None:
            sys.exit(status)
        quick.ARGV = args
        if short and _ran_without_click(args):
            return
        from cardsmith.commands.group import run

        run(args)
    finally:
        quick.ARGV = None
        if short:
            look.__exit__()
            gc.set_threshold(*thresholds)


def _ran_without_click(args: list[str]) -> bool:
    """Run a plain `render` command line without importing click (`cardsmith.commands.render_run`),
    exiting with its status; False for any other command line."""
    from cardsmith.commands.render_run import parse_plain, run_render

    plain = parse_plain(args)
    if plain is None:
        return False
    try:
        status = run_render(**plain)
    except (Exception, KeyboardInterrupt) as e:
        from cardsmith.commands.common import failure_status

        status = failure_status(e)
    sys.exit(status)
