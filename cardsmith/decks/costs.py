"""A card's cost for deck rules: which fields make it up (`cost:` in deck_rules, possibly per card
type), and the named cost functions a rules package declares for `played_by` cost lines."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from cardsmith.base.diagnostics import did_you_mean
from cardsmith.decks._compiler import as_list
from cardsmith.sets.model import Card

if TYPE_CHECKING:
    from cardsmith.decks._compiler import Compiler


def card_cost(card: Card, cost_fields: tuple[str, ...]) -> int | None:
    """The sum of the card's cost fields, or None if it has none of them."""
    values: list[int] = [v for v in (card.fields.get(f) for f in cost_fields) if isinstance(v, int) and not isinstance(v, bool)]
    return sum(values) if values else None


def cost_fields(comp: "Compiler", cost: Any) -> tuple[tuple[str, ...], dict[str, tuple[str, ...]]]:
    """`cost:` as (every cost field, per type fields): a field, a list of fields, or type -> field(s)."""
    if not cost:
        return (("cost",) if "cost" in comp.fields else ()), {}
    by_type: dict[str, tuple[str, ...]] = {}
    if isinstance(cost, dict):
        for tid, names in cost.items():
            if tid not in comp.cardset.types:
                comp.problem(("cost", tid), f"unknown card type '{tid}'", did_you_mean(tid, comp.cardset.types))
                continue
            by_type[tid] = tuple(as_list(names))
            for f in by_type[tid]:
                if f not in comp.cardset.types[tid].fields:
                    comp.problem(("cost", tid), f"type '{tid}' declares no field '{f}'",
                                 did_you_mean(f, comp.cardset.types[tid].fields))
        return tuple(dict.fromkeys(f for names in by_type.values() for f in names)), by_type
    fields = tuple(as_list(cost))
    for f in fields:
        if f not in comp.fields:
            comp.problem(("cost",), f"no card type declares a field '{f}'", did_you_mean(f, comp.fields))
    return fields, by_type


def cost_function(comp: "Compiler", name: str, path: tuple) -> Callable[..., Any] | None:
    """The cost function `name` that the set's rules module declares; a problem if it has none."""
    from cardsmith.decks.predicates import rules_module

    module = rules_module(comp.cardset)
    known = dict(getattr(module, "cost_functions", None) or {})
    if name not in known:
        where = f"rules module '{comp.cardset.rules}'" if module is not None else \
            ("no rules module (set.yaml has no `rules:`)" if not comp.cardset.rules else f"no rules module named '{comp.cardset.rules}'")
        comp.problem(path, f"unknown cost function '{name}': {where} declares none by that name",
                     did_you_mean(name, known) or (f"cost functions: {', '.join(known)}" if known else
                                                   "a rules package declares them in RULES.cost_functions"))
        return None
    return known[name]
