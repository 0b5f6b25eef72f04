"""The `cardsmith` command line's entry point.

The commands and their click group are in `cardsmith.commands.group`. A command run again on
unchanged inputs is answered first, from its record (`cardsmith.quick`), without importing click.
`render` and `pdf` walk each set of input files once (`freshness.one_look`).
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> None:
    """Entry point: user errors print as plain messages with a non-zero exit, never a traceback."""
    from cardsmith import freshness, quick

    args = sys.argv[1:] if argv is None else list(argv)
    short = args[:1] in (["render"], ["pdf"])  # these look at the same files several times: once is enough
    look = freshness.one_look()
    if short:
        look.__enter__()
    try:
        status = quick.answer(args)
        if status is not None:
            sys.exit(status)
        quick.ARGV = args
        from cardsmith.commands.group import run

        run(args)
    finally:
        quick.ARGV = None
        if short:
            look.__exit__()
