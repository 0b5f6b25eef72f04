"""The `cardsmith` click group: small commands, each a thin wrapper over a library function.

Commands live in `cardsmith/cli/<topic>.py`; each module exposes `COMMANDS`, a list of click
commands, is named in `COMMAND_MODULES` below, and each command in `LAZY_COMMANDS` (its module is
imported only when it runs). The entry point is `cardsmith.cli.main`.
"""

from __future__ import annotations

import importlib
import sys

import click

from cardsmith import __version__
from cardsmith.cli._common import failure_status
from cardsmith.base.errors import CardsmithError

COMMAND_MODULES = [
    "cardsmith.cli.cmd_core",
    "cardsmith.cli.cmd_render",
    "cardsmith.cli.cmd_pdf",
    "cardsmith.cli.cmd_export",
    "cardsmith.cli.cmd_decks",
    "cardsmith.cli.cmd_share",
    "cardsmith.cli.cmd_play",
    "cardsmith.cli.cmd_agents",
    "cardsmith.cli.cmd_components",
    "cardsmith.cli.cmd_check",
]

# Each command's module and the first sentence of its help, so that `cardsmith --help` and a command
# run import only what they use (start-up is most of an unchanged rebuild). tests/test_cli_lazy.py
# checks this table against the modules' COMMANDS: a command added there must be listed here.
LAZY_COMMANDS: dict[str, tuple[str, str]] = {
    "validate": ("cardsmith.cli.cmd_core", "Check sets (default: every set under cards/) and report every problem at once."),
    "list": ("cardsmith.cli.cmd_core", "List the sets under cards/ with their card counts per type; with SET, list that set's cards."),
    "new": ("cardsmith.cli.cmd_core", "Create a small valid set in DIRECTORY: set.yaml, a card file and a deck."),
    "build": ("cardsmith.cli.cmd_core", "Validate each set, then run every build stage over it, writing into output/<set>/."),
    "schema": ("cardsmith.cli.cmd_core", "Print the JSON Schema NAME (set, card, deck, ...) for editor completion, or write all with --out."),
    "render": ("cardsmith.cli.cmd_render", "Draw card images into output/<set>/cards/ and card backs into output/<set>/backs/."),
    "pdf": ("cardsmith.cli.cmd_pdf", "Print-and-play PDF of SET: output/<set>/<name>.pdf (renders missing card images first)."),
    "export": ("cardsmith.cli.cmd_export", "Export SET for a print shop, Tabletop Simulator, or as JSON / CSV (several at once is fine)."),
    "deck": ("cardsmith.cli.cmd_decks", "Check decks against their set's rules, show their statistics, build random legal decks."),
    "gallery": ("cardsmith.cli.cmd_share", "Write a static HTML gallery of each SET (every set when none is named) and output/index.html."),
    "sheet": ("cardsmith.cli.cmd_share", "Write labelled contact-sheet PNGs of every card of SET (output/<set>/sheets/)."),
    "import-csv": ("cardsmith.cli.cmd_share", "Create or update cards of the --set SET from FILE, a spreadsheet saved as CSV (one row per card)."),
    "watch": ("cardsmith.cli.cmd_share", "Serve SET's gallery on localhost and re-render cards as you save; the page reloads itself."),
    "play": ("cardsmith.cli.cmd_play", "Play GAMES games of SET between decks (one per seat) and print win rates with 95% intervals."),
    "balance": ("cardsmith.cli.cmd_play", "Round robin of SET's decks, card tests and a verdict; writes output/<set>/balance/report.html and balance.json."),
    "agents": ("cardsmith.cli.cmd_agents", "Measure SET's ladder of players: each against the one below it and against random, with PASS/FAIL rules."),
    "check-game": ("cardsmith.cli.cmd_check", "Hold SET's game to the game contract: random games at the smallest and largest table, hiding, determinizations, positions, the turn cap."),
    "components": ("cardsmith.cli.cmd_components", "Boards (hex grids, square grids, tracks) and token sheets declared in a set (see docs/components.md)."),
}


class LazyGroup(click.Group):
    """A group that imports a command's module only when that command runs (or its own --help shows)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(LAZY_COMMANDS) | set(self.commands))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.commands:
            return self.commands[cmd_name]
        where = LAZY_COMMANDS.get(cmd_name)
        if where is None:
            return None
        for command in importlib.import_module(where[0]).COMMANDS:
            if command.name == cmd_name:
                return command
        raise RuntimeError(f"{where[0]} has no command '{cmd_name}' (cardsmith.cli._group.LAZY_COMMANDS is out of date)")

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The command list from the table, worded and shortened exactly as click does for loaded commands."""
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(len(n) for n in names)
        rows = []
        for name in names:
            cmd = self.commands.get(name) or click.Command(name, help=LAZY_COMMANDS[name][1])
            if not cmd.hidden:
                rows.append((name, cmd.get_short_help_str(limit)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)


def _print_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    """--version: the version, and exit."""
    if not value or ctx.resilient_parsing:
        return
    click.echo(f"cardsmith, version {__version__}")
    ctx.exit()


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_print_version,
              help="Show the version and exit.")
def cli() -> None:
    """cardsmith: card games from YAML to print-ready cards, PDFs, galleries and simulated play.

    Run a command with --help for its options. Sets are folders under cards/ (or paths).
    """


def run(argv: list[str] | None = None) -> None:
    """Run the command line `argv`: user errors print as plain messages with a non-zero exit, never a traceback."""
    try:
        rv = cli.main(args=argv, prog_name="cardsmith", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        sys.exit(130)
    except click.ClickException as e:
        e.show()
        sys.exit(e.exit_code)
    except (CardsmithError, KeyboardInterrupt, Exception) as e:
        sys.exit(failure_status(e))
    sys.exit(rv if isinstance(rv, int) else 0)
