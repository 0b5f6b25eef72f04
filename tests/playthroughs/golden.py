"""Golden playthroughs: the text format, shared by `regenerate.py` (writes) and tests/test_playthroughs.py (replays).

A file is a header (set, decks, seats, agents, seed, cap), the game's own setup log, one line per
action and an end line. Each action line reads `N seat S K/M ACTION => EVENT | EVENT ...`: the action
was the K-th of the M legal actions offered to seat S, followed by the events `apply` returned.
The same `account()` renders both the written file and the replay, so comparing the two texts
compares the whole game. Only the public game contract is used: `load_game`, `new_game`, `to_act`,
`legal_actions`, `apply`, `is_terminal`, `outcome`, `returns`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

HEADER_KEYS = ("set", "decks", "seats", "agents", "seed", "cap")
ARROW = " => "
_ACTION_LINE = re.compile(r"^ *\d+ seat \d+ \d+/\d+ (?P<action>.*?)(?: => .*)?$")


@dataclass(frozen=True)
class Spec:
    """One golden game: which set, decks (one per seat, by file name in the set's decks/), agents, seed.

    `cap` is the most actions played (the game may end sooner); `note` says why a cap was chosen."""

    game: str  # folder under cards/
    name: str  # file name under tests/playthroughs/<game>/, without .txt
    decks: tuple[str, ...]
    agents: tuple[str, ...]
    seed: int
    cap: int
    note: str = ""

    @property
    def path(self) -> str:
        return f"{self.game}/{self.name}.txt"


CAP = 300  # every game below ends within it; a changed game that runs on stops there, and says so
_SLOW = ("greedy against greedy often runs to many hundreds of actions here (seconds a game); "
         "this seed ends in under 300")

SPECS: tuple[Spec, ...] = (
    Spec("solar-empires", "random-terracorp-shadow-3", ("terracorp", "shadow"), ("random", "random"), 3, CAP),
    Spec("solar-empires", "random-chain-terracorp-5", ("chain", "terracorp"), ("random", "random"), 5, CAP),
    Spec("solar-empires", "greedy-shadow-chain-7", ("shadow", "chain"), ("greedy", "greedy"), 7, CAP),
    Spec("trf", "random-dolash-omnae-1", ("dolash", "omnae"), ("random", "random"), 1, CAP),
    Spec("trf", "random-sable-xarn-9", ("sable", "xarn"), ("random", "random"), 9, CAP),
    Spec("trf", "greedy-xarn-dolash-7", ("xarn", "dolash"), ("greedy", "greedy"), 7, CAP),
    Spec("transwar", "random-standard-10", ("standard", "standard"), ("random", "random"), 10, CAP),
    Spec("transwar", "random-standard-15", ("standard", "standard"), ("random", "random"), 15, CAP),
    Spec("transwar", "greedy-standard-2", ("standard", "standard"), ("greedy", "greedy"), 2, CAP, _SLOW),
    Spec("rm2k-anime", "random-flame-war-script-gamers-6", ("flame-war", "script-gamers"), ("random", "random"), 6,
         CAP),
    Spec("rm2k-anime", "random-otaku-convention-flame-war-4", ("otaku-convention", "flame-war"),
         ("random", "random"), 4, CAP),
    Spec("rm2k-anime", "greedy-script-gamers-otaku-convention-7", ("script-gamers", "otaku-convention"),
         ("greedy", "greedy"), 7, CAP),
    Spec("alien-empires", "random-standard-7", ("standard", "standard"), ("random", "random"), 7, CAP),
    Spec("alien-empires", "random-standard-19", ("standard", "standard"), ("random", "random"), 19, CAP),
    Spec("alien-empires", "greedy-standard-54", ("standard", "standard"), ("greedy", "greedy"), 54, CAP, _SLOW),
)


def header_lines(spec: Spec) -> list[str]:
    lines = ["# Golden playthrough: see tests/playthroughs/README.md; "
             f"regenerate with `python tests/playthroughs/regenerate.py --game {spec.game}`",
             f"set: {spec.game}", f"decks: {', '.join(spec.decks)}", f"seats: {len(spec.decks)}",
             f"agents: {', '.join(spec.agents)}", f"seed: {spec.seed}", f"cap: {spec.cap} actions"]
    if spec.note:
        lines.append(f"note: {spec.note}")
    return lines


def _plain(value: Any) -> str:
    """Event data as short text: scalars as they print, lists joined with '+', mappings as k=v."""
    if isinstance(value, (list, tuple)):
        return "+".join(_plain(v) for v in value) or "-"
    if isinstance(value, dict) or hasattr(value, "items"):
        return "{" + " ".join(f"{k}={_plain(v)}" for k, v in value.items()) + "}"
    return str(value)


def event_text(event: Any) -> str:
    """An event as one short phrase: its own text, or (a hidden event) its kind and data; who may see it."""
    text = event.text or f"{event.kind} {_plain(dict(event.data))}"
    if event.seen_by is not None:
        text += f" (seen by {'+'.join(str(s) for s in event.seen_by) or 'nobody'})"
    return text


def _end_line(state: Any, decks: Sequence[str], played: int, cap: int) -> str:
    turn = getattr(state, "turn", "?")
    if not state.is_terminal():
        returns = ", ".join(f"{r:g}" for r in state.returns())
        why = f"stopped by the cap of {cap} actions" if played >= cap else "stopped"
        return f"end: {why}, game not over; turn {turn}; returns {returns}"
    outcome = state.outcome()
    returns = ", ".join(f"{r:g}" for r in state.returns())
    if outcome.winner is not None:
        result = f"winner seat {outcome.winner} ({decks[outcome.winner]})"
    elif not outcome.winners:
        result = "draw"
    else:
        result = "first place shared by seats " + ", ".join(str(s) for s in outcome.winners)
    capped = " (capped by the rules)" if outcome.capped else ""
    return f"end: after {played} actions, turn {turn}: {result}; reason {outcome.reason}{capped}; returns {returns}"


class Mismatch(str):
    """What a chooser returns instead of an action when the recorded one cannot be played: the reason."""


Chooser = Callable[[int, int, tuple], Any]  # (step, seat, legal actions) -> the action, or a Mismatch


def account(game: Any, decks: Sequence[Any], spec: Spec, choose: Chooser, steps: int) -> list[str]:
    """The text of a game: header, setup log, one line per action chosen by `choose`, end line.

    `choose` returns one of the legal actions, or a `Mismatch` (shown in place of the action; the
    account stops there)."""
    state = game.new_game(list(decks), spec.seed)
    lines = header_lines(spec) + ["", "setup:"] + [f"  {line}" for line in state.log] + ["", "actions:"]
    played = 0
    for step in range(1, steps + 1):
        acting = state.to_act()
        if not acting:
            lines.append(f"  (the game is over, yet the file goes on to action {steps})")
            break
        seat = acting[0]
        legal = state.legal_actions(seat)
        action = choose(step, seat, legal)
        if isinstance(action, Mismatch):
            lines.append(f"{step:4} seat {seat} {action}")
            return lines
        events = state.apply(action, seat)
        played += 1
        said = " | ".join(event_text(e) for e in events)
        lines.append(f"{step:4} seat {seat} {legal.index(action) + 1}/{len(legal)} {action}"
                     + (ARROW + said if said else ""))
    lines += ["", _end_line(state, spec.decks, played, spec.cap)]
    return lines


def read_header(lines: Sequence[str]) -> Spec:
    """The Spec a file was written from (its name from nothing: the caller knows the path)."""
    found: dict[str, str] = {}
    for line in lines:
        if not line or line == "setup:":
            break
        key, sep, value = line.partition(": ")
        if sep and key in HEADER_KEYS + ("note",):
            found[key] = value
    missing = [k for k in HEADER_KEYS if k not in found]
    if missing:
        raise ValueError(f"the header has no {', '.join(missing)}")
    split = lambda v: tuple(x.strip() for x in v.split(","))  # noqa: E731
    return Spec(found["set"], "", split(found["decks"]), split(found["agents"]), int(found["seed"]),
                int(found["cap"].split()[0]), found.get("note", ""))


def recorded_actions(lines: Sequence[str]) -> list[str]:
    """The action texts of a file, in order."""
    start = lines.index("actions:") + 1
    out = []
    for line in lines[start:]:
        if not line:
            break
        m = _ACTION_LINE.match(line)
        if m is None:
            raise ValueError(f"not an action line: {line!r}")
        out.append(m.group("action"))
    return out


def by_text(recorded: Sequence[str]) -> Chooser:
    """A chooser replaying recorded action texts: the legal action that prints as the recorded one."""
    def choose(step: int, seat: int, legal: tuple) -> Any:
        text = recorded[step - 1]
        for action in legal:
            if str(action) == text:
                return action
        shown = ", ".join(str(a) for a in legal[:8]) + (" ..." if len(legal) > 8 else "")
        return Mismatch(f"recorded action {text} is not legal here; offered ({len(legal)}): {shown}")
    return choose


def load(root: Path, set_name: str, decks: Sequence[str]) -> tuple[Any, list[Any]]:
    """The game and the seats' decks (file names in the set's decks/), from the set folder `root/cards/<set_name>`."""
    from cardsmith.engine.registry import load_game
    from cardsmith.simulation.sets import load_checked_deck, load_set_checked

    cardset = load_set_checked(root / "cards" / set_name)
    return load_game(cardset), [load_checked_deck(cardset, d) for d in decks]
