"""TransWar bound to a card set: setup (the dealer's draw, the deal), positions, determinization and
the heuristic agents use."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, Mapping, Sequence

from cardsmith.engine.chance import SeededChance
from cardsmith.engine.contract import Chance, PositionError
from cardsmith.engine.kit.shape import check_position, first_moves, guarded
import cardsmith.games.transwar.position_schema as position_schema
from cardsmith.games.transwar.cards import CardTable
from cardsmith.games.transwar.fight import totals
from cardsmith.games.transwar.flow import HAND, start_turn
from cardsmith.games.transwar.state import FIELDS, GAME, HIDDEN, TransWarState, plain_copy
from cardsmith.sets.model import CardSet, Deck

ZONE = "deck"            # the common deck's zone in deck files
DEFAULT_TURN_CAP = 400
DEALER_REDRAWS = 50
HP_SCALE = 30            # the heuristic's health unit: the largest Form's HP in the standard set      # ties for the dealer are dealt again; a scripted chance could tie forever


SAMPLE_TRIES = 64  # deals tried before settling for one that changes a hand


class TransWarGame:
    """The `Game` of the contract for one TransWar card set."""

    name = GAME

    def __init__(self, cardset: CardSet, rules: Any = None):
        self.cardset = cardset
        self.rules = rules
        self.table = CardTable.from_set(cardset)
        play = dict(cardset.meta.get("play") or {})
        self.turn_cap = int(play.get("turn_cap", DEFAULT_TURN_CAP))

    # ---- new games ------------------------------------------------------------------------------
    def new_game(self, decks: Sequence[Deck], seed: int, *, chance: Chance | None = None,
                 keep_forced: bool = False) -> TransWarState:
        """A game with one seat per deck; every seat brings the same common deck (decks[0] is dealt).
        `keep_forced`: see `contract.Game`."""
        if not 2 <= len(decks) <= 6:
            raise ValueError(f"TransWar is for 2 to 6 players, not {len(decks)}")
        cards = decks[0].cards(ZONE) if ZONE in decks[0].zones else decks[0].cards()
        unknown = sorted({c for c in cards if c not in self.table})
        if unknown:
            raise ValueError(f"deck {decks[0].name!r} holds cards not in set {self.cardset.id}: {', '.join(unknown)}")
        st = TransWarState(self.table, len(decks), chance if chance is not None else SeededChance(seed), self.turn_cap)
        st.keep_forced = keep_forced
        st.pool = dict(Counter(cards))
        self._choose_dealer(st, cards)
        st.deck = list(cards)
        st.chance.shuffle(st.deck, "deck", "public")
        for i in range(st.seats):
            seat = (st.dealer + 1 + i) % st.seats
            st.hands[seat] = [st.deck.pop() for _ in range(min(HAND, len(st.deck)))]
            st.rec("deal", f"P{seat} is dealt {len(st.hands[seat])} cards", seat=seat, count=len(st.hands[seat]))
            st.rec("dealt", "", seen_by=(seat,), seat=seat, cards=list(st.hands[seat]))
        st.dealt = [list(h) for h in st.hands]  # for cards_dealt (a fresh state's attribute; clones drop it)
        st.active = (st.dealer + 1) % st.seats   # "the player to the left of the dealer has the first turn"
        start_turn(st)
        st.settle()
        return st

    def _choose_dealer(self, st: TransWarState, cards: list[str]) -> None:
        """Deal one Form to each player; the highest HP deals (ties are dealt again among the tied)."""
        forms = [c for c in cards if self.table.is_form(c)]
        contenders = list(range(st.seats))
        if len(forms) < st.seats:
            raise ValueError(f"the deck holds {len(forms)} Forms; choosing the dealer needs one per player")
        for k in range(DEALER_REDRAWS):
            pile = list(forms)
            st.chance.shuffle(pile, "dealer draw" if k == 0 else f"dealer redraw {k}", "public")
            dealt = dict(zip(contenders, pile))
            hp = {s: self.table.form(f).hp for s, f in dealt.items()}
            st.rec("dealer_draw", "dealer's draw: " + ", ".join(f"P{s} {self.table[f].name} ({hp[s]} HP)"
                                                                for s, f in dealt.items()), forms=dict(dealt))
            best = max(hp.values())
            contenders = [s for s in contenders if hp[s] == best]
            if len(contenders) == 1:
                break
        st.dealer = contenders[0]
        st.rec("dealer", f"P{st.dealer} is the dealer", seat=st.dealer)

    # ---- positions ------------------------------------------------------------------------------
    def from_position(self, position: Mapping[str, Any], *, chance: Chance | None = None,
                      seed: int = 0, keep_forced: bool = False) -> TransWarState:
        """A state from `position()` data or one written by hand (docs/rules/transwar.md, "Positions"):
        entries with a default may be left out; a mistake is a PositionError naming the entry."""
        if position.get("game") != GAME:
            raise PositionError(f"the position is a {position.get('game')!r} game, not {GAME!r}")
        seats = position.get("seats")
        if not isinstance(seats, int) or isinstance(seats, bool) or not 2 <= seats <= 6:
            raise PositionError(f"seats: {seats!r} is not a number of players from 2 to 6")
        data = check_position(position, position_schema.schema(seats), self.table.cards)
        steps = [e["kind"] for e in data["stack"] if e["kind"] in position_schema.ATTACK_STEPS]
        if steps and data["attack"] is None:
            raise PositionError(f"stack: the step '{steps[0]}' belongs to an attack, but `attack:` is null; "
                                "give the attack (attacker, defender) or leave the stack empty")
        attack = data["attack"]
        if attack is not None and attack.get("attacker") == attack.get("defender"):  # issue 32: was accepted
            raise PositionError(f"attack: seat {attack.get('attacker')} attacks itself; the defender must be another seat")
        return guarded(lambda: self._build(data, chance if chance is not None else SeededChance(seed), keep_forced),
                       first_moves)

    def _build(self, data: Mapping[str, Any], chance: Chance, keep_forced: bool = False) -> TransWarState:
        st = TransWarState(self.table, data["seats"], chance, int(data.get("turn_cap", self.turn_cap)))
        st.keep_forced = keep_forced
        for f in FIELDS:
            if f in data:  # turn_cap and tally may be left out: the setting's value, counts from zero
                setattr(st, f, plain_copy(data[f]))
            elif f not in ("turn_cap", "tally"):
                raise PositionError(f"the position has no `{f}:` entry")
        _check_shape(st)
        st.played = [set(p) for p in st.played]
        _check_cards(self.table, st)
        st.pool = dict(data.get("pool") or Counter(all_cards(st)))
        if st.result is None and not st.stack:
            start_turn(st)
        st.settle()
        return st

    def sample_state(self, observation: Any, rng: random.Random) -> TransWarState:
        """A state matching what the observer knows: unseen cards dealt at random to hidden slots."""
        obs = dict(observation)
        pool: Counter[str] = Counter(obs["pool"])
        seen = Counter(c for c in all_cards_data(obs) if c != HIDDEN)
        hidden = list((pool - seen).elements())
        sizes = [len(h) for h in obs["hands"]]
        fallback: TransWarState | None = None
        # The deal is conditioned on what the observer saw happen: a seat choosing its first Form drew
        # until its hand held a valid one, so a deal that leaves it none (and the rules would deal on,
        # changing the hand) is not a state the game could be in. Such deals are drawn again.
        for _ in range(SAMPLE_TRIES):
            unseen = list(hidden)
            rng.shuffle(unseen)
            hands = [[unseen.pop() if c == HIDDEN else c for c in h] for h in obs["hands"]]
            deck = [unseen.pop() if c == HIDDEN else c for c in obs["deck"]]
            try:
                st = self._build(dict(obs, hands=hands, deck=deck), SeededChance(rng.randrange(2 ** 32)))
            except RuntimeError:  # a seat left with no legal action: not a reachable deal
                continue
            if [len(h) for h in st.hands] == sizes:
                return st
            fallback = fallback or st
        if fallback is None:
            raise RuntimeError("TransWar: no deal of the unseen cards fits the observation")
        return fallback

    def balance_figures(self, records: Sequence[Any]) -> dict[str, Any]:
        """Win rate per seat and per starting Form, allies asked and what helping earns, game length."""
        import cardsmith.games.transwar.balance as balance

        return balance.figures(balance.Finished(r.summary, r.outcome, r.turns) for r in records if r.summary)

    def balance_text(self, figures: Mapping[str, Any]) -> str:
        import cardsmith.games.transwar.balance as balance

        return balance.text(figures)

    def balance_sentences(self, figures: Mapping[str, Any]) -> list[str]:
        import cardsmith.games.transwar.balance as balance

        return balance.sentences(figures)

    # ---- evaluation -----------------------------------------------------------------------------
    def heuristic(self, state: TransWarState, seat: int) -> float:
        """0..1: health left against the others', cards in hand, turns lost and players already out.

        During an attack whose mode is chosen, health counts the damage the totals so far would
        deal, so playing a card that changes the outcome shows at once (greedy agents see it)."""
        if state.is_terminal():
            return state.returns()[seat]
        if seat in state.out:  # the players it outlasted
            return state.out.index(seat) / max(1, state.seats - 1)
        pending: dict[int, int] = {}
        if state.attack is not None and state.attack["modes"]:
            at, dt = totals(state)
            if at > dt:
                pending[state.attack["defender"]] = at - dt
        alive = state.alive()
        health = {s: max(0, state.hp_left(s) - pending.get(s, 0)) / HP_SCALE for s in alive}
        others = [s for s in alive if s != seat]
        mine = health[seat] - sum(health[s] for s in others) / max(1, len(others))
        cards = len(state.hands[seat]) - sum(len(state.hands[s]) for s in others) / max(1, len(others))
        gone = len(state.out) / max(1, state.seats - 1)
        value = 0.5 + 0.3 * mine + 0.02 * cards + 0.2 * gone - 0.05 * state.status[seat]["lost"]
        return max(0.0, min(1.0, value))


def all_cards_data(data: Mapping[str, Any]) -> list[str]:
    """Every card a position holds, wherever it is (hands, deck, discard, Forms, played, waiting)."""
    out: list[str] = []
    for h in data["hands"]:
        out.extend(h)
    out.extend(data["deck"])
    out.extend(data["discard"])
    out.extend(f for f in data["forms"] if f)
    attack = data.get("attack") or {}
    for cards in (attack.get("played") or {}).values():
        out.extend(cards)
    out.extend(e["form"] for e in data["stack"] if e.get("kind") == "@transform")
    rescue = data.get("rescue")
    if rescue:
        out.append(rescue["form"])
    return out


def all_cards(st: TransWarState) -> list[str]:
    return all_cards_data({f: getattr(st, f) for f in FIELDS})


def _check_shape(st: TransWarState) -> None:
    """Per-seat entries have one item per seat; the stack's entries name a kind."""
    for f in ("forms", "damage", "status", "started", "hands", "played"):
        value = getattr(st, f)
        if not isinstance(value, list) or len(value) != st.seats:
            raise PositionError(f"{f}: needs one entry per seat ({st.seats})")
    for s in st.out:
        if not isinstance(s, int) or not 0 <= s < st.seats:
            raise PositionError(f"out: {s!r} is not a seat")
    if not isinstance(st.active, int) or not 0 <= st.active < st.seats:
        raise PositionError(f"active: {st.active!r} is not a seat")
    for i, e in enumerate(st.stack):
        if not isinstance(e, dict) or "kind" not in e:
            raise PositionError(f"stack[{i}]: each entry is a mapping with a `kind:`")


def _check_cards(table: CardTable, st: TransWarState) -> None:
    for c in all_cards(st):
        if c not in table:
            raise PositionError(f"the position names card {c!r}, which the set does not have")
    for s in range(st.seats):
        f = st.forms[s]
        if f is not None and not table.is_form(f):
            raise PositionError(f"forms[{s}]: {f!r} is not a Form")
        # A seat between its first `transform` and paying for it has no Form yet (an `@transform` step
        # waits on the stack); any other seat that has started and is not out needs one.
        becoming = any(e["kind"] == "@transform" and e.get("seat") == s for e in st.stack)
        if f is None and st.started[s] and s not in st.out and not becoming:
            raise PositionError(f"forms[{s}] is null, but seat {s} has had its first turn and is not out: give its "
                                f"Form, or `started: false` (it Transforms on its next turn), or put it in `out:`")
