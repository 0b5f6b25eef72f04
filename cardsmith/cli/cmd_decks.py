"""`cardsmith deck check|stats|random`: thin wrappers over cardsmith.decks."""

from __future__ import annotations

import json
import random as _random
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

from cardsmith.base.atomic import write_text
from cardsmith.base.errors import CardsmithError, UsageError
from cardsmith.base.project import Project, SetNotFound

out_console = Console(highlight=False, emoji=False, soft_wrap=True)  # emoji=False: `:x:` in a name stays as written
err_console = Console(stderr=True, highlight=False, emoji=False, soft_wrap=True)


def _resolve_set_dir(deck_path: Path, set_name: str | None) -> Path:
    """The set a deck is checked against: --set, else the deck's `set:`, else the set whose decks/ holds it."""
    from cardsmith.decks import deck_set_name, set_folder_of

    project = Project.current()
    home = set_folder_of(deck_path)
    name = set_name or deck_set_name(deck_path)
    if name is not None:
        if home is not None and name.lower() in (home.name.lower(), _set_id(home).lower()):
            return home
        try:
            return project.resolve_set(name)
        except SetNotFound as e:
            if home is not None and (home.parent / name / "set.yaml").is_file():
                return home.parent / name
            raise UsageError(str(e)) from None
    if home is not None:
        return home
    raise UsageError(f"{deck_path}: which set is this deck for?",
                     hint="add `set: <set name>` to the deck file, pass --set SET, or keep the deck in cards/<set>/decks/")


def _set_id(set_dir: Path) -> str:
    """The id a set folder's set.yaml gives (its folder name if it cannot be read)."""
    from cardsmith.sets.loader import YamlError, load_yaml

    try:
        data = load_yaml(set_dir / "set.yaml").data
    except YamlError:
        return set_dir.name
    return str(data.get("id") or set_dir.name) if isinstance(data, dict) else set_dir.name


def _load(deck_file: str, set_name: str | None):
    from cardsmith.decks import load_deck, parse_rules
    from cardsmith.sets.validate import load_set

    path = Path(deck_file)
    if not path.is_file():
        raise UsageError(f"{path}: no such deck file")
    try:
        empty = not path.read_bytes().strip()
    except OSError as e:
        raise CardsmithError(f"{path}: cannot read the deck file: {e.strerror}") from None
    if empty:
        from cardsmith.decks import DeckFileError
        from cardsmith.base.diagnostics import Diagnostic
        raise DeckFileError([Diagnostic("error", path, 1, 1, "the deck file is empty",
                                        "list cards as `3x Card name` lines (text) or `zone: {Card name: 3}` (YAML); see docs/decks.md")])
    cardset = load_set(_resolve_set_dir(path, set_name))
    rules = parse_rules(cardset)
    return load_deck(path, cardset, rules), cardset, rules


def _reported(fn):
    """Print a deck file's or deck rules' problems as `file:line:col: error: ...` lines and exit 1."""
    import functools

    from cardsmith.decks import DeckFileError, RulesInvalid

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except (DeckFileError, RulesInvalid) as e:
            from cardsmith.cli._common import print_diagnostics
            print_diagnostics(e.diagnostics, Path.cwd())
            return 1
    return wrapper


def _esc(text: str) -> str:
    from cardsmith.cli._common import _escape

    return _escape(text)


@click.group()
def deck() -> None:
    """Check decks against their set's rules, show their statistics, build random legal decks."""


@deck.command()
@click.argument("deck_file", metavar="DECK")
@click.option("--set", "set_name", metavar="SET", help="The set to check against (default: the deck's set: or its folder).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON on stdout.")
@_reported
def check(deck_file: str, set_name: str | None, as_json: bool) -> int:
    """Report every deck rule DECK breaks (exit 1 if it breaks any).

    DECK is a YAML deck (zone: {Card name: count}) or a text list (3x Card name, [zone] headers).
    """
    from cardsmith.decks import check_deck
    from cardsmith.decks.stage import violation_diagnostic

    d, cardset, rules = _load(deck_file, set_name)
    violations = check_deck(d, cardset, rules)
    if as_json:
        click.echo(json.dumps({"deck": d.name, "file": deck_file, "set": cardset.id, "legal": not violations,
                               "cards": {z: d.count(z) for z in d.zones},
                               "violations": [v.to_json() for v in violations]}, indent=2))
    else:
        for v in violations:
            diag = violation_diagnostic(v, d, Path(deck_file))
            where = f"{deck_file}:{diag.line}"
            cards = ", ".join(f"{cardset.card(c).name if c in cardset.by_id() else c}" for c in v.cards[:8])
            more = f" (+{len(v.cards) - 8} more)" if len(v.cards) > 8 else ""
            counts = ", ".join(f"{k} {n}" for k, n in v.counts.items())
            out_console.print(f"[red]{_esc(where)}: {_esc(v.rule)}[/]: {_esc(v.message)}")
            if cards:
                out_console.print(f"    [dim]cards: {_esc(cards)}{more}; counts: {_esc(counts)}[/]")
        sizes = ", ".join(f"{rules.zone_name(z)} {d.count(z)}" for z in d.zones)
        if violations:
            err_console.print(f"[red]{_esc(d.name)}: {len(violations)} rule(s) broken[/] ({_esc(sizes)})")
        else:
            err_console.print(f"[green]{_esc(d.name)}: legal[/] for {_esc(cardset.name)} ({_esc(sizes)})")
    return 1 if violations else 0


@deck.command()
@click.argument("deck_file", metavar="DECK")
@click.option("--set", "set_name", metavar="SET", help="The set the deck is built from (default: the deck's set: or its folder).")
@click.option("--chart", type=click.Path(dir_okay=False), metavar="FILE.png", help="Also draw the cost curve, types and keywords as a PNG.")
@click.option("--json", "as_json", is_flag=True, help="Print the statistics as JSON on stdout.")
@_reported
def stats(deck_file: str, set_name: str | None, chart: str | None, as_json: bool) -> int:
    """Counts per zone, type, group and keyword, and the cost curve of DECK (what its account pays)."""
    from cardsmith.decks import deck_stats, write_chart

    if chart and not chart.lower().endswith(".png"):
        raise UsageError(f"--chart {chart}: the chart is a PNG; give a file name ending in .png")
    d, cardset, rules = _load(deck_file, set_name)
    s = deck_stats(d, cardset, rules)
    if as_json:
        click.echo(json.dumps(s.to_json(), indent=2))
    else:
        out_console.print(f"[bold]{_esc(s.deck)}[/] ({_esc(cardset.name)}): {s.total} cards"
                          + (f", average cost {s.average_cost}" if s.average_cost is not None else ""))
        from rich import box

        cost_title = (f"cost curve ({s.cost_label})" if s.cost_label else "cost curve") \
            + (f", as {s.chosen} pays it" if s.chosen else "")
        groups = [(f"{name.lower()} groups", name.lower(), data) for name, data in s.dimensions.items()]
        for title, head, data in (("zones", "zone", s.zones), ("types", "type", s.types), *groups,
                                  ("keywords", "keyword", s.keywords), (cost_title, "cost", dict(s.buckets))):
            if not data:
                continue
            t = Table(title=title, title_justify="left", title_style="bold", box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
            t.add_column(head)
            t.add_column("cards", justify="right")
            t.add_column("", no_wrap=True)
            for k, n in data.items():
                t.add_row(_esc(str(k)), str(n), "#" * n)
            out_console.print()
            out_console.print(t)
        if s.surcharges:
            t = Table(title=f"costs {s.chosen} pays differently", title_justify="left", title_style="bold",
                      box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
            for head in ("card", "copies", "printed", "paid", "why"):
                t.add_column(head, justify="right" if head in ("copies", "printed", "paid") else "left")
            for x in s.surcharges:
                t.add_row(_esc(x["name"]), str(x["copies"]), str(x["printed"]), str(x["paid"]), _esc("; ".join(x["rules"])))
            out_console.print()
            out_console.print(t)
    if chart:
        path = write_chart(s, chart)
        err_console.print(f"wrote {path}")
    return 0


@deck.command("random")
@click.argument("set_name", metavar="SET")
@click.option("--seed", type=int, default=None, help="The same seed gives the same deck (default: a new seed, printed).")
@click.option("--faction", metavar="X", help="Build from this group (a race, a faction...) and cards of none.")
@click.option("--out", type=click.Path(dir_okay=False), metavar="FILE",
              help="Write the deck here (.yaml, or .txt for a text list) instead of printing it.")
@_reported
def random_cmd(set_name: str, seed: int | None, faction: str | None, out: str | None) -> int:
    """Build a random legal deck of SET from its deck rules."""
    from cardsmith.decks import dump_deck, random_deck
    from cardsmith.cache.named_set import open_named_set

    if out:
        from cardsmith.base.untrusted import writable_file

        writable_file(out, "--out")
    _, cardset = open_named_set(set_name)
    if seed is None:
        seed = _random.SystemRandom().randrange(1_000_000)
    d = random_deck(cardset, seed=seed, faction=faction)
    fmt = "text" if out and not out.lower().endswith((".yaml", ".yml")) else "yaml"
    text = f"# cardsmith deck random {cardset.id} --seed {seed}" + (f" --faction {faction}" if faction else "") + "\n"
    text += dump_deck(d, cardset, fmt)
    if out:
        write_text(out, text)
        err_console.print(f"wrote {out} ({d.count()} cards, seed {seed})")
    else:
        click.echo(text, nl=False)
    return 0


COMMANDS = [deck]
