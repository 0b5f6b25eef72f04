"""What a set says about its game, checked against the game's rules module at validate time.

The set's `rules:` must name a registered game (did-you-mean over them); its `play:` settings must
fit `RULES.play_schema`; the card fields the rules read must fit `RULES.card_fields`; each card's `effect:` entries must name effects of `RULES.effects` with
well-typed parameters and an allowed `when`, and cards of `RULES.effect_types` must carry one; the
deck rules may only name predicates that exist; and `RULES.validate(cardset)`
adds the game's own checks. Every problem becomes a Diagnostic at its file:line:col.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping

from cardsmith.base.diagnostics import Diagnostic, did_you_mean, path_text
from cardsmith.engine.contract import EffectSpec, Problem, RulesModule, card_effects
from cardsmith.base.errors import CardsmithError
from cardsmith.sets.loader import Document
from cardsmith.sets.model import Card, CardSet

if TYPE_CHECKING:
    import jsonschema

# Where a card was written: card id -> (its document, its path in it, the path of its `effect:`,
# which may be in the file's `defaults:`).
CardPlaces = Mapping[str, tuple[Document, tuple, "tuple | None"]]
Report = Callable[..., None]  # report(doc, path, message, hint=None, *, key=False)


def rules_diagnostics(cardset: CardSet, set_doc: Document, places: CardPlaces) -> list[Diagnostic]:
    """Every problem between the set and its rules (empty when the set names no rules)."""

    out: list[Diagnostic] = []

    def report(doc: Document, path: tuple, message: str, hint: str | None = None, *, key: bool = False) -> None:
        line, col = doc.position(path, key=key)
        out.append(Diagnostic("error", doc.path, line, col, message, hint, path_text(path)))

    if not cardset.rules:
        return out
    rules = _installed_rules(str(cardset.rules), set_doc, report, out)
    if rules is None:
        return out
    _play_settings(rules, set_doc, report)
    for card in cardset.cards:
        if card.id in places:
            doc, base, effect_at = places[card.id]
            _card_effects(rules, card, doc, base, effect_at, report)
            _card_fields(rules, card, doc, base, report)
    _deck_rule_names(rules, cardset, set_doc, report)
    if rules.validate is not None:
        for problem in rules.validate(cardset) or ():
            _problem(problem, cardset, set_doc, places, report, out)
    return out


def not_installed_hint(name: str) -> str:
    """What to do about a `rules:` naming a game that is not installed (here, or for play and balance)."""
    from cardsmith.engine.registry import unknown_rules_hint

    return (f"install the package of the game '{name}' (`pip install -e path/to/your-game`, see docs/tutorial-game.md "
            f"to write one); {unknown_rules_hint(name)}")


def _installed_rules(name: str, set_doc: Document, report: Report, out: list[Diagnostic]) -> RulesModule | None:
    """The rules `rules:` names, or None after saying why not. A game that is not installed (yet) is a
    warning: cards can be drawn, printed and shared before their rules exist; play and balance refuse.
    A name close to an installed game's is a typo, and an error with "did you mean"."""
    from cardsmith.engine.registry import get_rules

    try:
        rules = get_rules(name)
    except CardsmithError as e:  # installed but broken: that is an error
        report(set_doc, ("rules",), e.message, e.hint)
        return None
    if rules is None and _misspelt(name):  # close to a game that is installed: a typo, not a game to come
        report(set_doc, ("rules",), f"rules '{name}': no game of that name is installed", _misspelt(name))
    elif rules is None:
        line, col = set_doc.position(("rules",))
        out.append(Diagnostic("warning", set_doc.path, line, col,
                              f"rules '{name}': no game of that name is installed, so the set cannot be played yet "
                              "(its cards validate, render and print)", not_installed_hint(name), "rules"))
    return rules


def _misspelt(name: str) -> str | None:
    """"did you mean 'x'?" when `name` is close to a known game's name."""
    from cardsmith.base.diagnostics import did_you_mean
    from cardsmith.engine.registry import canonical, known_games

    return did_you_mean(canonical(name), known_games())


def set_level_diagnostics(set_doc: Document) -> list[Diagnostic]:
    """What set.yaml alone says wrong about its game (`rules:` and `play:`), for a set whose cards have
    errors of their own: validate lists these too, so every problem shows at once."""
    out: list[Diagnostic] = []

    def report(doc: Document, path: tuple, message: str, hint: str | None = None, *, key: bool = False) -> None:
        line, col = doc.position(path, key=key)
        out.append(Diagnostic("error", doc.path, line, col, message, hint, path_text(path)))

    name = set_doc.data.get("rules") if isinstance(set_doc.data, dict) else None
    if isinstance(name, str) and name:
        rules = _installed_rules(name, set_doc, report, out)
        if rules is not None:
            _play_settings(rules, set_doc, report)
    return out


def _play_settings(rules: RulesModule, doc: Document, report: Report) -> None:
    play = doc.data.get("play") if isinstance(doc.data, dict) else None
    if play is None:
        return
    for err in sorted(_schema_errors(rules.play_schema, play), key=lambda e: list(map(str, e.absolute_path))):
        path = ("play",) + tuple(err.absolute_path)
        if err.validator == "additionalProperties":
            allowed = list(err.schema.get("properties", {}))
            for extra in [k for k in err.instance if k not in allowed]:
                report(doc, path + (extra,), f"play: '{extra}' is not a setting of {rules.name}",
                       did_you_mean(extra, allowed) or f"settings of {rules.name}: {', '.join(allowed) or 'none'}", key=True)
            continue
        report(doc, path, f"{path_text(path)}: {_schema_words(err)}", _setting_hint(rules, tuple(err.absolute_path)))


def _setting_hint(rules: RulesModule, path: tuple) -> str | None:
    spec = dict(rules.play_schema).get("properties", {}).get(path[0]) if path else None
    return spec.get("description") if isinstance(spec, dict) else None


def _schema_errors(schema: Mapping[str, Any], value: Any) -> Iterator[jsonschema.ValidationError]:
    """jsonschema's errors for `value`."""
    return _validator(schema).iter_errors(value)


_VALIDATORS: dict[int, tuple[Mapping[str, Any], Any]] = {}


def _validator(schema: Mapping[str, Any]) -> jsonschema.Draft202012Validator:
    """jsonschema's validator of `schema`, built once per process (the rules modules' schemas live as long;
    each is kept beside its validator, so that its id is not reused)."""
    hit = _VALIDATORS.get(id(schema))
    if hit is None or hit[0] is not schema:
        import jsonschema

        hit = _VALIDATORS[id(schema)] = (schema, jsonschema.Draft202012Validator(dict(schema)))
    return hit[1]


def _schema_words(err: jsonschema.ValidationError) -> str:
    v = err.validator
    if v == "type":
        return f"must be {err.validator_value}, not {err.instance!r}"
    if v in ("minimum", "maximum"):
        return f"must be {'at least' if v == 'minimum' else 'at most'} {err.validator_value}, not {err.instance!r}"
    if v == "enum":
        return f"{err.instance!r} is not one of {', '.join(map(str, err.validator_value))}"
    if v == "required":
        return err.message.replace("is a required property", "is required")
    return err.message


def _node(data: Any, path: tuple) -> Any:
    for part in path:
        try:
            data = data[part]
        except (KeyError, IndexError, TypeError):
            return None
    return data


def _card_effects(rules: RulesModule, card: Card, doc: Document, base: tuple, effect_at: tuple | None,
                  report: Report) -> None:
    effects = card_effects(card)
    known = list(rules.effects)
    if not effects:
        if card.type in rules.effect_types:
            report(doc, base, f"card '{card.id}' ({card.type}) has no `effect:`, and {rules.name} needs one for every {card.type}",
                   f"add `effect: {{do: ...}}`; effects of {rules.name}: {', '.join(known) or 'none'}")
        return
    where = effect_at if effect_at is not None else base + ("effect",)
    listed = isinstance(_node(doc.data, where), list)
    for i, eff in enumerate(effects):
        at = where + ((i,) if listed else ())
        name = eff.get("do")
        spec = rules.effects.get(str(name))
        if spec is None:
            report(doc, at + ("do",), f"card '{card.id}': effect '{name}' is not an effect of {rules.name}",
                   did_you_mean(str(name), known) or f"effects of {rules.name}: {', '.join(known) or 'none'}")
            continue
        _effect_params(spec, card, eff, doc, at, report)


def _card_fields(rules: RulesModule, card: Card, doc: Document, base: tuple, report: Report) -> None:
    """The fields the rules read on this card's type, each value checked against the rules' JSON Schema
    (whether a card must have the field is the set's type declaration's business)."""
    for name, schema in (rules.card_fields.get(card.type) or {}).items():
        if name not in card.fields:
            continue
        value = card.fields[name]
        value = list(value) if isinstance(value, tuple) else value  # list fields are kept as tuples
        for err in _schema_errors(schema, value):
            at = base + (name,) if _node(doc.data, base + (name,)) is not None else base
            report(doc, at, f"card '{card.id}': {name} {_schema_words(err)} (as {rules.name} reads it)", schema.get("description"))


def _effect_params(spec: EffectSpec, card: Card, eff: Mapping[str, Any], doc: Document, at: tuple, report: Report) -> None:
    for param, schema in spec.params.items():
        if param not in eff:
            if "default" not in schema:
                report(doc, at, f"card '{card.id}': effect '{spec.name}' needs `{param}`", _param_hint(spec, param))
            continue
        for err in _schema_errors(schema, eff[param]):
            report(doc, at + (param,), f"card '{card.id}': effect '{spec.name}': {param} {_schema_words(err)}", _param_hint(spec, param))
    allowed = set(spec.params) | {"do"} | ({"when"} if spec.when else set())
    for extra in [k for k in eff if k not in allowed]:
        report(doc, at + (extra,), f"card '{card.id}': effect '{spec.name}' takes no `{extra}`",
               did_you_mean(extra, sorted(allowed)) or f"its parameters: {', '.join(sorted(allowed))}")
    when = eff.get("when")
    if spec.when and when is not None and when not in spec.when:
        report(doc, at + ("when",), f"card '{card.id}': effect '{spec.name}' cannot happen when '{when}'",
               did_you_mean(str(when), spec.when) or f"timings it takes: {', '.join(spec.when)}")


def _param_hint(spec: EffectSpec, param: str) -> str:
    schema = dict(spec.params[param])
    what = schema.get("description") or schema.get("type") or "a value"
    return f"{param}: {what}" + (f" ({spec.doc})" if spec.doc else "")


def _deck_rule_names(rules: RulesModule, cardset: CardSet, doc: Document, report: Report) -> None:
    from cardsmith.decks.predicates import registered_predicates

    data = cardset.deck_rules or {}
    known = sorted(set(rules.deck_predicates) | set(registered_predicates()))
    for i, pred in enumerate(data.get("predicates") or []):
        name = pred.get("check") if isinstance(pred, Mapping) else None
        if name is not None and name not in known:
            report(doc, ("deck_rules", "predicates", i, "check"), f"deck rule check '{name}' is not a predicate of {rules.name}",
                   did_you_mean(str(name), known) or f"predicates: {', '.join(known) or 'none'}")
    # Names in `cost:` are checked by the deck rules themselves (cardsmith.decks.rules), against card fields.


def _problem(p: Problem, cardset: CardSet, set_doc: Document, places: CardPlaces, report: Report, out: list[Diagnostic]) -> None:
    if p.card is not None and p.card in places:
        doc, base, _ = places[p.card]
        at = base + tuple(p.path)
        if _node(doc.data, at) is None:
            at = base  # the problem names a key the card does not write: point at the card
        report(doc, at, f"card '{p.card}': {p.message}", p.hint)
    elif p.setting is not None:
        report(set_doc, ("play",) + tuple(p.setting), f"play: {p.message}", p.hint)
    else:
        report(set_doc, ("rules",), p.message, p.hint)
    if p.severity != "error":
        last = out.pop()
        out.append(Diagnostic(p.severity, last.file, last.line, last.column, last.message, last.hint, last.path))
