"""The `cardsmith` command line's entry point; the commands and their click group are in `cardsmith.cli._group`."""

from __future__ import annotations


def main(argv: list[str] | None = None) -> None:
    """Entry point: user errors print as plain messages with a non-zero exit, never a traceback."""
    from cardsmith.cli._group import run

    run(argv)
