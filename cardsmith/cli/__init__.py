"""The `cardsmith` command line's entry point.

The commands and their click group are in `cardsmith.cli._group`. A command run again on
unchanged inputs is answered first, from its record (`cardsmith.cli._quick`), without importing click.
`render` and `pdf` walk each set of input files once (`freshness.one_look`).
"""

from __future__ import annotations

import gc
import sys


def main(argv: list[str] | None = None) -> None:
    """Entry point: user errors print as plain messages with a non-zero exit, never a traceback."""
    from cardsmith.cache import freshness
    from cardsmith.cli import _quick as quick

    args = sys.argv[1:] if argv is None else list(argv)
    short = args[:1] in (["render"], ["pdf"])  # these look at the same files several times: once is enough
    look, thresholds = freshness.one_look(), gc.get_threshold()
    if short:
        look.__enter__()
        # Most of a one-card rebuild is importing modules, and the cycle collector runs every 700 new
        # objects, going over all of them again and again. Refcounting frees what these commands drop;
        # render's workers collect as usual (`cardsmith.render.draw._init_worker`).
        gc.set_threshold(100_000, 50, 50)
    try:
        status = quick.answer(args)
        if status is None and short:
            quick.ARGV = args
            status = _run_without_click(args)
        if status is not None:
            _end(status, whole_process=argv is None)
        quick.ARGV = args
        from cardsmith.cli._group import run

        run(args)
    finally:
        quick.ARGV = None
        if short:
            look.__exit__()
            gc.set_threshold(*thresholds)


def _run_without_click(args: list[str]) -> int | None:
    """Run a plain `render` command line without importing click (`cardsmith.cli._render_run`) and
    return its exit status; None for any other command line."""
    from cardsmith.cli._render_run import parse_plain, run_render

    plain = parse_plain(args)
    if plain is None:
        return None
    try:
        return run_render(**plain)
    except (Exception, KeyboardInterrupt) as e:
        from cardsmith.cli._common import failure_status

        return failure_status(e)


def _end(status: int, whole_process: bool) -> None:
    """Exit with `status`. When this command is the whole process (the command line, not a caller in
    Python), skip the interpreter's teardown: freeing every module and object a render loaded took
    ~45 ms, a tenth of a one-card rebuild, and nothing of these commands needs it (their files are
    closed and their workers joined before they return); the output is flushed first."""
    if not whole_process:
        sys.exit(status)
    import os

    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe (`| head`), a closed stream
            pass
    os._exit(status)
