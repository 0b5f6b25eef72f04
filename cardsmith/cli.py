"""The `cardsmith` command line's entry point.

The commands and their click group are in `cardsmith.commands.group`. A command run again on
unchanged inputs is answered first, from its record (`cardsmith.quick`), without importing click.
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> None:
    """Entry point: user errors print as plain messages with a non-zero exit, never a traceback."""
    from cardsmith import quick

    args = sys.argv[1:] if argv is None else list(argv)
    status = quick.answer(args)
    if status is not None:
        sys.exit(status)
    quick.ARGV = args
    try:
        from cardsmith.commands.group import run

        run(args)
    finally:
        quick.ARGV = None
