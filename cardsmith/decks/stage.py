"""The `decks` stage of `cardsmith build`: check every deck in the set's decks/ folder."""

from __future__ import annotations

import json
from pathlib import Path

from cardsmith.base.atomic import write_text
from cardsmith.decks.check import Violation, check_deck
from cardsmith.decks.files import DeckFileError, LoadedDeck, deck_files, load_deck
from cardsmith.decks.rules import RulesInvalid, parse_rules
from cardsmith.decks.stats import deck_stats
from cardsmith.base.diagnostics import Diagnostic
from cardsmith.sets.model import Deck


def violation_diagnostic(v: Violation, deck: Deck, file: Path | None) -> Diagnostic:
    """A violation as `file:line: error: message`, at the line of the first card involved
    (in the violation's zone if it has one), else of the zone, else line 1."""
    line = 1
    if isinstance(deck, LoadedDeck):
        found = [deck.lines.get((v.zone, c)) for c in v.cards] if v.zone else []
        found += [ln for c in v.cards for (z, cid), ln in deck.lines.items() if cid == c]
        if not found and v.zone:
            found = [ln for (z, _), ln in deck.lines.items() if z == v.zone]
        line = next((ln for ln in found if ln), 1)
    return Diagnostic("error", file, line, 1, v.message, f"deck rule '{v.rule}' of the set (see its set.yaml deck_rules)")


def build_stage(ctx) -> None:
    """Check each deck of the set; problems go to ctx.diagnostics; a report goes to output/<set>/decks.json."""
    files = deck_files(ctx.cardset.path)
    if not files:
        return
    try:
        rules = parse_rules(ctx.cardset)
    except RulesInvalid as e:
        ctx.diagnostics.extend(e.diagnostics)
        return
    report = []
    for path in files:
        ctx.progress(f"checking deck {path.name}")
        try:
            deck = load_deck(path, ctx.cardset, rules)
        except DeckFileError as e:
            ctx.diagnostics.extend(e.diagnostics)
            report.append({"file": path.name, "legal": False, "errors": [d.message for d in e.diagnostics]})
            continue
        violations = check_deck(deck, ctx.cardset, rules)
        ctx.diagnostics.extend(violation_diagnostic(v, deck, path) for v in violations)
        report.append({"file": path.name, "name": deck.name, "legal": not violations,
                       "violations": [v.to_json() for v in violations],
                       "stats": deck_stats(deck, ctx.cardset, rules).to_json()})
    target = ctx.out / "decks.json"
    write_text(target, json.dumps({"set": ctx.cardset.id, "decks": report}, indent=2) + "\n")
    ctx.wrote("deck report", target)
