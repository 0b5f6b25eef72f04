"""The `cardsmith` command line: small commands, each a thin wrapper over a library function.

Commands live in `cardsmith/commands/<topic>.py`; each module exposes `COMMANDS`, a list of click
commands, and is named in `COMMAND_MODULES` below.
"""

from __future__ import annotations

import importlib
import os
import sys

import click

from cardsmith import __version__
from cardsmith.errors import CardsmithError

COMMAND_MODULES = [
    "cardsmith.commands.core",
    "cardsmith.commands.render",
    "cardsmith.commands.pdf",
    "cardsmith.commands.export",
    "cardsmith.commands.decks",
    "cardsmith.commands.share",
    "cardsmith.commands.play",
    "cardsmith.commands.components",
]


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="cardsmith")
def cli() -> None:
    """cardsmith: card games from YAML to print-ready cards, PDFs, galleries and simulated play.

    Run a command with --help for its options. Sets are folders under cards/ (or paths).
    """


for _name in COMMAND_MODULES:
    for _command in importlib.import_module(_name).COMMANDS:
        cli.add_command(_command)


def main(argv: list[str] | None = None) -> None:
    """Entry point: user errors print as plain messages with a non-zero exit, never a traceback."""
    try:
        rv = cli.main(args=argv, prog_name="cardsmith", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        sys.exit(130)
    except click.ClickException as e:
        e.show()
        sys.exit(e.exit_code)
    except CardsmithError as e:
        click.secho(str(e) if e.located else f"error: {e}", fg="red", err=True)
        sys.exit(e.exit_code)
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        sys.exit(130)
    except Exception as e:  # a bug of ours: say so briefly; CARDSMITH_DEBUG=1 shows the traceback
        if os.environ.get("CARDSMITH_DEBUG"):
            raise
        click.secho(f"internal error: {type(e).__name__}: {e}", fg="red", err=True)
        click.echo("  this is a bug in cardsmith; run again with CARDSMITH_DEBUG=1 for details", err=True)
        sys.exit(3)
    sys.exit(rv if isinstance(rv, int) else 0)
