"""Named deck predicates: deck rules that data cannot say, written in Python by a set's rules module.

A rules module (`cardsmith/games/<rules>.py`) registers a check under a name:

    from cardsmith.decks import register_predicate, Problem

    @register_predicate("trf-alignment")
    def alignment(deck, cardset, **params):
        ...
        yield Problem("a lightside account cannot hold darkside cards", cards=[...], counts={...})

and set.yaml names it: `deck_rules: {predicates: [{check: trf-alignment, name: ..., with: {...}}]}`.
The check gets the deck, the set and the `with:` parameters, and yields a `Problem` for each thing
wrong (or returns a list of them). When a set names a check nobody registered yet, cardsmith imports
the set's rules module, which registers it as it loads.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping

from cardsmith.base.errors import CardsmithError
from cardsmith.sets.model import CardSet, Deck


@dataclass(frozen=True)
class Problem:
    """What a predicate found wrong: a message, the card ids involved and the numbers that matter."""

    message: str
    cards: tuple[str, ...] | list[str] = ()
    counts: Mapping[str, int] = field(default_factory=dict)


Predicate = Callable[..., Iterable[Problem] | None]
_REGISTRY: dict[str, Predicate] = {}


def register_predicate(name: str) -> Callable[[Predicate], Predicate]:
    """Decorator: make `fn(deck, cardset, **params)` available to set.yaml as `check: <name>`."""

    def deco(fn: Predicate) -> Predicate:
        _REGISTRY[name] = fn
        return fn
    return deco


def unregister_predicate(name: str) -> None:
    """Remove a registered check (for tests that register temporary ones)."""
    _REGISTRY.pop(name, None)


def registered_predicates() -> list[str]:
    return sorted(_REGISTRY)


def rules_module(cardset: CardSet) -> Any:
    """The `RULES` (contract.RulesModule) of the set's game, or None: whatever the engine's registry
    finds under the set's `rules:` name (a bundled package, an entry point, or one registered in-process)."""
    if not cardset.rules:
        return None
    from cardsmith.engine.registry import get_rules

    return get_rules(cardset.rules)


def get_predicate(name: str, cardset: CardSet) -> Predicate:
    """The check registered as `name` or declared in the rules module's `deck_predicates`."""
    if name not in _REGISTRY:
        declared = dict(getattr(rules_module(cardset), "deck_predicates", None) or {})
        if name in declared:
            return declared[name]
    if name not in _REGISTRY:
        where = f"cardsmith.games.{cardset.rules}" if cardset.rules else "a rules module (set.yaml has no `rules:`)"
        known = ", ".join(registered_predicates()) or "none"
        raise CardsmithError(
            f"set {cardset.id}: deck rule check '{name}' is not registered (registered: {known})",
            hint=f"register it in {where} with @cardsmith.decks.register_predicate('{name}'), or fix the name in deck_rules.predicates")
    return _REGISTRY[name]


def run_predicate(name: str, deck: Deck, cardset: CardSet, params: Mapping[str, Any]) -> list[Problem]:
    fn = get_predicate(name, cardset)
    out = fn(deck, cardset, **dict(params))
    problems = []
    for p in out or ():
        if isinstance(p, str):
            p = Problem(p)
        elif not isinstance(p, Problem):
            raise TypeError(f"deck check '{name}' returned {p!r}; it must yield Problem objects or strings")
        problems.append(p)
    return problems
