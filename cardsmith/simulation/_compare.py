"""`cardsmith balance SET --compare REV|DIR`: both versions of a set played on the same seeds.

Matchups move by a paired difference (game i of the old and of the new version share the seed,
the seating and the players' generators); card effects move by the difference of the two card
tests. The report names the cards whose text changed between the versions, the changed card whose
own effect moved most (the likely cause of a matchup shift), and whether what the earlier verdict
named is fixed.
"""

from __future__ import annotations

import contextlib
import math
from pathlib import Path
from typing import Any, Iterator

from cardsmith.engine.stats import Z95
from cardsmith.base.errors import CardsmithError
from cardsmith.sets.model import CardSet
from cardsmith.base.project import Project
from cardsmith.simulation._inference import Effect, paired_effect
from cardsmith.simulation.match import BalanceResult


@contextlib.contextmanager
def earlier_set(project: Project, cardset: CardSet, spec: str) -> Iterator[tuple[str, CardSet]]:
    """The set as it was: a folder holding a copy of it (set.yaml in it, in DIR/<set>, or in
    DIR/cards/<set>), or a git revision (the same revision handling as `gallery --compare`)."""
    from cardsmith.share.compare import set_at_revision
    from cardsmith.simulation.sets import load_set_checked

    given = Path(spec).expanduser()
    if given.is_dir():
        for folder in (given, given / cardset.id, given / "cards" / cardset.id):
            if (folder / "set.yaml").is_file():
                yield str(spec), load_set_checked(folder)
                return
        raise CardsmithError(f"{given} holds no copy of the set {cardset.id} (no set.yaml in it, in {given / cardset.id} "
                             f"or in {given / 'cards' / cardset.id})",
                             hint="give a folder with an earlier copy of the set, or a git revision such as HEAD~1")
    with set_at_revision(project, cardset, spec) as (label, _project, old_set):
        yield label, old_set


def _text(e: Effect) -> str:
    return f"{100 * e.mean:+.1f} points [{100 * e.low:+.1f}, {100 * e.high:+.1f}]"


def matchup_shifts(old: BalanceResult, new: BalanceResult) -> list[dict[str, Any]]:
    """Per deck and table: the paired change of the deck's result (new minus old) on the same seeds."""
    by_index = {r.index: r for r in old.records}
    cells: dict[tuple[str, tuple[str, ...]], list[float]] = {}
    for r in new.records:
        o = by_index.get(r.index)
        if o is None or o.seed != r.seed or o.decks != r.decks:
            continue  # the versions' decks differ here: no pair
        table = tuple(sorted(r.decks))
        for seat, deck in enumerate(r.decks):
            cells.setdefault((deck, table), []).append(r.returns()[seat] - o.returns()[seat])
    out = []
    for (deck, table), diffs in sorted(cells.items()):
        e = paired_effect(diffs)
        out.append({"deck": deck, "against": [d for d in table if d != deck], **e.to_dict(),
                    "moved": e.low > 0 or e.high < 0})
    return out


def card_shifts(old: dict[str, Any], new: dict[str, Any]) -> list[dict[str, Any]]:
    """Per (deck, card) tested in both versions: the change of its effect, new minus old."""
    before = {(r["deck"], r["card"]): r for r in old.get("card_tests", [])}
    out = []
    for r in new.get("card_tests", []):
        o = before.get((r["deck"], r["card"]))
        if o is None:
            continue
        # Each version's effect was estimated with sequential looks: the change keeps the stricter split.
        se = math.hypot(_se(r), _se(o))
        e = Effect(r["effect"] - o["effect"], se, r["games"] + o["games"], looks=max(r.get("looks", 1), o.get("looks", 1)))
        out.append({"deck": r["deck"], "card": r["card"], "name": r["name"], "old": o["effect"], "new": r["effect"],
                    "old_flag": o["flag"], "new_flag": r["flag"], **{k: v for k, v in e.to_dict().items() if k in
                                                                     ("effect", "low", "high", "p_value")},
                    "moved": e.low > 0 or e.high < 0})
    out.sort(key=lambda x: -abs(x["effect"]) / max(1e-9, x["high"] - x["low"]))
    return out


def _se(row: dict[str, Any]) -> float:
    """A card test's standard error (rows written before `se` was stored: from its 95% interval)."""
    if row.get("se") is not None:
        return float(row["se"])
    return (row["high"] - row["low"]) / (2 * Z95)


def card_edits(old_set: CardSet, new_set: CardSet) -> dict[str, list[str]]:
    """Cards whose data changed between the versions: id -> what changed (added/removed too)."""
    from cardsmith.share.compare import record_changes
    from cardsmith.share.data import card_record

    a, b = old_set.by_id(), new_set.by_id()
    out: dict[str, list[str]] = {}
    for cid in sorted(set(a) | set(b)):
        if cid not in a:
            out[cid] = ["added"]
        elif cid not in b:
            out[cid] = ["removed"]
        else:
            what = record_changes(card_record(a[cid], old_set), card_record(b[cid], new_set))
            if what:
                out[cid] = what
    return out


def _fixed(cause: dict[str, Any], new: dict[str, Any]) -> str:
    row = next((r for r in new.get("card_tests", []) if r["deck"] == cause["deck"] and r["card"] == cause["card"]), None)
    if row is None:
        return f"{cause['card']} ({cause['deck']}), named {cause['flag']} before, is no longer tested (not in the deck)."
    now = f"now {100 * row['effect']:+.1f} points [{100 * row['low']:+.1f}, {100 * row['high']:+.1f}]"
    if row["flag"] == cause["flag"]:
        return f"Not fixed: {row['name']} ({row['deck']}) is still {cause['flag']}, {now}."
    return f"Fixed: {row['name']} ({row['deck']}), named {cause['flag']} before, is {now}, no longer flagged."


def compare_versions(label: str, old_fig: dict[str, Any], new_fig: dict[str, Any], old_run: BalanceResult,
                     new_run: BalanceResult, edits: dict[str, list[str]]) -> dict[str, Any]:
    """What moved between the versions, with sentences for the verdict."""
    matchups = matchup_shifts(old_run, new_run)
    cards = card_shifts(old_fig, new_fig)
    sentences = [f"Against {label}: " + (f"{len(edits)} cards changed ({', '.join(sorted(edits)[:6])}"
                                          f"{' ...' if len(edits) > 6 else ''})." if edits else "no card data changed.")]
    for m in matchups:
        if m["moved"] and len(m["against"]) == 1 and m["deck"] < m["against"][0]:
            sentences.append(f"{m['deck']} against {m['against'][0]} moved {_text(_effect(m))} on the same seeds.")
    edited = [c for c in cards if c["card"] in edits]
    if edited:
        top = max(edited, key=lambda c: abs(c["effect"]) / max(1e-9, c["high"] - c["low"]))
        change = "; ".join(edits[top["card"]][:3])
        sentences.append(f"Likely cause: {top['name']} ({change}), whose effect in {top['deck']} moved "
                         f"{100 * top['effect']:+.1f} points [{100 * top['low']:+.1f}, {100 * top['high']:+.1f}] "
                         f"({100 * top['old']:+.1f} -> {100 * top['new']:+.1f}).")
    for cause in old_fig.get("verdict", {}).get("causes", []):
        sentences.append(_fixed(cause, new_fig))
    for deck in old_fig.get("verdict", {}).get("strong_decks", []):
        still = deck in new_fig["verdict"]["strong_decks"]
        sentences.append(f"{deck} was too strong before and {'still is' if still else 'no longer is'}.")
    return {"against": label, "edited_cards": edits, "matchups": matchups, "cards": cards, "sentences": sentences,
            "earlier_verdict": old_fig.get("verdict", {}).get("sentences", [])}


def _effect(row: dict[str, Any]) -> Effect:
    return Effect(row["effect"], _se(row), row["games"])

