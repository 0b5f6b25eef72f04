"""An Alien Empires game in progress: plain-data fields, a stack of steps, and the contract's methods.

The map is the set's (a `HexMap`); tokens are counted per hex and per seat. The top of `stack` is
what happens next: a decision of one seat (legal actions from `STEPS.decisions`), the simultaneous
Force reveal (`to_act()` lists every seat still to commit) or an automatic step ("@..."). A decision
with one legal action is taken at once.
"""

from __future__ import annotations

from itertools import compress, repeat
from operator import itemgetter
from typing import Any, Container, Sequence

from cardsmith.engine.chance import SeededChance
from cardsmith.engine.contract import Chance, Decision, Event, IllegalAction, Outcome
from cardsmith.engine.kit import EventRecorder, position_header, ResultState
from cardsmith.engine.kit.steps import Steps
from cardsmith.games.alien_empires.cards import CardTable
from cardsmith.games.alien_empires.hexmap import HexMap
from cardsmith.games.alien_empires.powers import cards_handlers, sees_hand
from cardsmith.games.alien_empires.decisions import decision as _decision

GAME = "alien_empires"
HIDDEN = "?"
STEPS: "Steps[AlienState]" = Steps()
_DECISIONS = STEPS.decisions  # (kind -> (legal, apply), filled as the rules modules load)
_AUTOS = STEPS.autos  # (kind -> run, the automatic steps)
_ONE = tuple((s,) for s in range(6))  # to_act's answer for one seat, made once (the rules seat 2 to 6: RULES.players)
# Position fields besides the map's (worlds and tokens, written by label).
FIELDS = ("order", "active", "turn", "round", "out", "hands", "deck", "discard", "destiny", "turnstate",
          "conflict", "stack", "played", "neutral")


def plain_copy(value: Any) -> Any:
    """A deep copy of plain data (tuples become lists)."""
    if isinstance(value, dict):
        return {k: plain_copy(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        if all(type(v) is str or type(v) is int for v in value):  # a pile of cards, a row of counts
            return list(value)
        return [plain_copy(v) for v in value]
    return value


class Settings:
    """The numbers of `play:` the rules read (defaults: the text's)."""

    def __init__(self, play: dict[str, Any]):
        self.turn_cap = int(play.get("turn_cap", 300))
        self.worlds = int(play.get("worlds", 20))
        self.markers = int(play.get("markers", 10))
        self.hand = int(play.get("hand", 10))
        self.fate_draw = int(play.get("fate_draw", 5))
        self.move = int(play.get("move", 2))
        self.attacks = int(play.get("attacks", 3))
        self.destiny = int(play.get("destiny", 3))
        self.conflicting = [tuple(p) for p in play.get("conflicting", ())]
        self.world_ids: tuple[str, ...] = tuple(f"world-{i + 1}" for i in range(self.worlds))


# What never changes during a game (the card table, the map, the settings), named by a key: a state
# (and each clone) holds references to them, and a pickle or deep copy only the key (`__getstate__`),
# so copying a state never walks the map's distance table.
_STATIC: dict[int, tuple[CardTable, HexMap, Settings]] = {}


def static_key(table: CardTable, hexmap: HexMap, settings: Settings) -> int:
    key = id(settings)
    _STATIC[key] = (table, hexmap, settings)
    return key


class AlienState(ResultState):
    """One game of Alien Empires for `seats` players (2 to 6)."""

    # True: a decision with one legal action waits for it like any other (`new_game(keep_forced=True)`).
    keep_forced = False

    def __init__(self, table: CardTable, hexmap: HexMap, settings: Settings, seats: int, chance: Chance | None = None):
        self.static = static_key(table, hexmap, settings)
        self.table: CardTable
        self.map: HexMap
        self.settings: Settings
        self._bind()
        self.seats = seats
        self.chance: Chance = chance if chance is not None else SeededChance(0)
        self.log: list[str] = []
        self.rec: EventRecorder | _Quiet = EventRecorder(self.log)
        self.loud = True                                  # False once muted: no events, no log
        self.worlds: dict[int, str] = {}                 # hex -> world id
        self.tokens: list[list[int]] = [[0] * seats for _ in range(len(hexmap))]
        # The hexes where each seat has tokens: an index the rules keep with `tokens` (every change
        # goes through `add_tokens`, `kill` or `move_tokens`), so listing a seat's stacks or its
        # opponents' does not walk the whole map (a random game asks a few hundred times).
        self.held: list[set[int]] = [set() for _ in range(seats)]
        self.order: list[int] = list(range(seats))       # playing order (reverse of the setup order)
        self.active = 0                                   # index into order
        self.turn = 1
        self.round = 1
        self.out: list[int] = []
        self.hands: list[list[str]] = [[] for _ in range(seats)]
        self.deck: list[str] = []
        self.discard: list[str] = []
        self.destiny: list[list[str]] = [[] for _ in range(seats)]
        # Each seat's handlers from its Racial Destiny (`powers.handlers` outside a conflict's cancels
        # and borrows): kept by `destiny_changed`, since the rules ask for them a few thousand times a game.
        self.does: list[frozenset[str]] = [frozenset()] * seats
        self.turnstate: dict[str, Any] = {}
        self.conflict: dict[str, Any] | None = None
        self.stack: list[dict[str, Any]] = []
        self.played: list[list[str]] = [[] for _ in range(seats)]
        self.neutral: list[str] = []                      # excluded cards (powers the rules do not play), for counts
        self.result: Outcome | None = None
        # The legal actions listed since the last change, and whose (-1 and (): none): one seat's
        # list is all the runner asks for between two actions, so two fields rather than a dict per
        # action. (Asked about seat -1, the kept () is the right answer.)
        self._lseat = -1
        self._lacts: tuple = ()
        # The seats `settle` left to act (None: read them off the stack), so that `to_act`, asked
        # before every action, need not.
        self._acting: tuple[int, ...] | None = None
        # (a list made once, its actions as a set) from the last listing that keeps one
        # (`turns._move_to_legal`): when that list is the kept one, `apply` tests an action in
        # one look-up rather than a scan of some 36 moves.
        self._lset: tuple[tuple, Container] | None = None
        self.pool: dict[str, int] = {}
        # turns.FreeMemo: what the seat's last Migration listing worked out, which saves listing its
        # stacks and power moves anew after each ordinary move. Not part of the position.
        self.free_memo: Any = None
        # (discard stack entry, worked out by the last discard?, its legal list): the same for a
        # discard of several cards. Not part of the position.
        self.discard_memo: tuple[dict[str, Any], bool, tuple] | None = None

    def _bind(self) -> None:
        """The card table, map and settings as attributes (the rules read the map a few thousand
        times a game); `static` names them, and a pickle carries the key, not them."""
        self.table, self.map, self.settings = _STATIC[self.static]

    def __getstate__(self) -> dict[str, Any]:
        got = dict(self.__dict__)
        for k in ("table", "map", "settings"):
            got.pop(k, None)
        return got

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._bind()

    # ---- the contract ---------------------------------------------------------------------------
    def decision(self) -> Decision | None:
        """The pending decision by name: kind, seats, prompt (docs/rules/alien-empires.md, "Decisions")."""
        return _decision(self)

    def to_act(self) -> tuple[int, ...]:
        got = self._acting
        if got is not None:
            return got
        if self.result is not None or not self.stack:
            return ()
        top = self.stack[-1]
        if top["kind"] == "reveal":
            return tuple(top["waiting"])
        return _ONE[top["seat"]]

    def _who(self, seat: int | None) -> int | None:
        """The seat that acts for `seat` (None: the first to act), or None when it does not act now."""
        if self.result is not None or not self.stack:
            return None
        top = self.stack[-1]
        if top["kind"] == "reveal":
            waiting = top["waiting"]
            who = waiting[0] if seat is None else seat
            return who if who in waiting else None
        who = top["seat"]
        return who if seat is None or seat == who else None

    def legal_actions(self, seat: int | None = None) -> tuple:
        if seat == self._lseat:  # the seat `settle` found to act: its kept list
            return self._lacts
        who = self._who(seat)
        if who is None:
            return ()
        if who == self._lseat:
            return self._lacts
        return self._list(who)

    def _list(self, who: int) -> tuple:
        """The legal actions of `who`, which acts now, kept until the next change."""
        top = self.stack[-1]
        kind = top["kind"]  # (a reveal's entry names no seat: each waiting seat lists its own)
        got = _DECISIONS[kind][0](self, top if kind != "reveal" else dict(top, seat=who))
        self._lseat, self._lacts = who, got
        return got

    def apply(self, action: Any, seat: int | None = None) -> tuple[Event, ...]:
        legal = self._lacts
        if seat == self._lseat and legal:  # listed for this seat since the last change: it acts now
            who = seat
        else:
            got = self._who(seat)
            if got is None:
                acting = self.to_act()
                if not acting:
                    raise IllegalAction("the game is over")
                raise IllegalAction(f"seat {seat} is not to act (seat {acting[0]} is)")
            who = got
            legal = self.legal_actions(who)
        lset = self._lset
        try:
            listed = action in lset[1] if lset is not None and lset[0] is legal else action in legal
        except TypeError:  # (an unhashable action: the scan below says whether it is legal)
            listed = False
        if not listed:
            if type(action) is list:
                action = _tuple(action)
            if action not in legal:
                raise IllegalAction(f"{action!r} is not legal for seat {who} now")
        top = self.stack[-1]
        kind = top["kind"]
        # (no step reads the kept list, the seats to act or `to_act`; `settle` sets all three anew
        # wherever it stops, and a step that refuses the action before changing anything leaves
        # them true)
        _DECISIONS[kind][1](self, top if kind != "reveal" else dict(top, seat=who), action)
        self.settle()
        return self.rec.take() if self.loud else ()

    def mute(self) -> None:
        """From now on record no events and no log lines (`apply` returns ()); clones stay muted.
        The runner mutes a game whose log nobody reads: replaying its actions gives the log back."""
        self.loud = False
        self.rec = _QUIET

    def settle(self) -> None:
        """Run automatic steps and forced decisions (kept with `keep_forced`) until a seat has a real
        choice (or the game ends)."""
        # No step lists legal actions, so a list is kept only where play stops (every way out below
        # sets the kept list, its seat and the seats to act): a random game runs some 2,000 steps here.
        # (the tables are read as globals: a call runs the loop about twice, too few to gain from locals)
        stack = self.stack
        while self.result is None:
            if not stack:
                STEPS.empty(self)  # turns.next_turn
                continue
            top = stack[-1]
            kind = top["kind"]
            run = _AUTOS.get(kind)  # (an automatic step: one lookup says so and finds it)
            if run is not None:
                stack.pop()
                run(self, top)
                continue
            if kind == "reveal":
                waiting = top["waiting"]
                if len(waiting) != 1:  # simultaneous: each seat still to commit chooses
                    self._lseat, self._lacts, self._acting = -1, (), None
                    return
                seat = waiting[0]
                entry = dict(top, seat=seat)
            else:
                seat = top["seat"]
                if seat in self.out:
                    stack.pop()
                    continue
                entry = top
            # (the legal list of a decision on the stack, as legal_actions would work it out; the
            # listings return tuples, as `Steps` types them, kept as they are)
            listed, do = _DECISIONS[kind]
            legal = listed(self, entry)
            if len(legal) < 2:
                if not legal:
                    raise RuntimeError(f"no legal action for seat {seat} at {kind}")
                if not self.keep_forced:
                    do(self, entry, legal[0])  # a forced decision is taken at once
                    continue
            self._lseat, self._lacts, self._acting = seat, legal, _ONE[seat]
            return
        stack.clear()
        self._lseat, self._lacts, self._acting = -1, (), None

    def destiny_changed(self) -> None:
        """After a Racial Destiny changed (a Race card played, a state built from data): `does` anew."""
        self.does = [cards_handlers(self, d) for d in self.destiny]

    def cards_dealt(self, seat: int) -> frozenset[str]:
        """Right after `new_game`: the starting hand the `@deal` step will give the seat, read off the
        shuffled deck (the homeworld choices before the deal draw nothing), so the common-deck
        balance test's treatment is the deal itself, not what is left after the Racial Destiny."""
        n, h = len(self.deck), self.settings.hand
        return frozenset(self.deck[max(0, n - (seat + 1) * h):n - seat * h])

    def cards_played(self, seat: int) -> frozenset[str]:
        """The Race cards of the seat's Racial Destiny and every Force and Event card it played."""
        return frozenset(self.destiny[seat]) | frozenset(self.played[seat])

    @property
    def first_player(self) -> int | None:
        return self.order[0] if self.turnstate or self.turn > 1 else None

    # ---- helpers --------------------------------------------------------------------------------
    @property
    def seat(self) -> int:
        """The active player."""
        return self.order[self.active]

    def alive(self) -> list[int]:
        if not self.out:
            return list(range(self.seats))
        return [s for s in range(self.seats) if s not in self.out]

    def push(self, kind: str, seat: int | None = None, **data: Any) -> None:
        if seat is None:
            self.stack.append({"kind": kind, **data})
        else:
            self.stack.append({"kind": kind, "seat": seat, **data})

    def total(self, seat: int) -> int:
        rows = self.tokens
        return sum([rows[h][seat] for h in self.held[seat]])

    def stacks(self, seat: int) -> list[int]:
        """Hexes where `seat` has tokens, in order."""
        return sorted(self.held[seat])

    def recount(self) -> None:
        """`held` anew from `tokens` (a state built from data)."""
        rows = self.tokens
        everywhere = range(len(rows))
        self.held = [set(compress(everywhere, map(itemgetter(s), rows))) for s in range(self.seats)]

    def controller(self, hex_: int) -> int | None:
        """The only seat with tokens on the hex, or None."""
        holders = [s for s, n in enumerate(self.tokens[hex_]) if n]
        return holders[0] if len(holders) == 1 else None

    def colonised(self, seat: int) -> list[int]:
        """Worlds on which `seat` has tokens ("Any world you have tokens on is considered to be colonized")."""
        return sorted(self.held[seat].intersection(self.worlds))

    def draw(self, seat: int, n: int, why: str = "") -> list[str]:
        """Draw up to `n` cards, shuffling the discards into a new deck when it runs out."""
        deck = self.deck
        if n <= len(deck):  # (the usual case: the top `n` cards in one slice, in the order `pop` takes them)
            got = deck[len(deck) - n:]
            got.reverse()
            del deck[len(deck) - n:]
            self.hands[seat] += got
        else:
            got = self._draw_through(seat, n)
        if got and self.loud:
            self.rec("draw", f"P{seat} draws {len(got)}{' (' + why + ')' if why else ''}", seat=seat, count=len(got))
            self.rec("drew", "", seen_by=(seat,), seat=seat, cards=list(got))
        return got

    def _draw_through(self, seat: int, n: int) -> list[str]:
        """`draw` card by card, reshuffling the discards when the deck runs out."""
        got: list[str] = []
        for _ in range(n):
            if not self.deck:
                if not self.discard:
                    break
                self.deck, self.discard = self.discard, []
                self.chance.shuffle(self.deck, "reshuffle", "public")
                self.rec("reshuffle", f"the deck is exhausted: {len(self.deck)} discards shuffled into a new deck")
            card = self.deck.pop()
            self.hands[seat].append(card)
            got.append(card)
        return got

    def discard_card(self, seat: int, card: str) -> None:
        self.hands[seat].remove(card)
        self.discard.append(card)

    def random_card(self, seat: int, why: str) -> str | None:
        """A card of `seat`'s hand picked at random (public chance: the pick, not the card, is seen)."""
        hand = self.hands[seat]
        if not hand:
            return None
        return hand[self.chance.randrange(len(hand), why, "public")]

    def add_tokens(self, hex_: int, seat: int, n: int) -> None:
        """`n` more tokens of `seat` on the hex (fewer when `n` < 0)."""
        row = self.tokens[hex_]
        row[seat] += n
        if row[seat]:
            self.held[seat].add(hex_)
        else:
            self.held[seat].discard(hex_)

    def move_tokens(self, seat: int, src: int, dst: int, n: int) -> None:
        """`n` tokens of `seat` go from `src` to `dst`."""
        self.add_tokens(src, seat, -n)
        self.add_tokens(dst, seat, n)

    def kill(self, hex_: int, seat: int, n: int, why: str) -> int:
        n = min(n, self.tokens[hex_][seat])
        if n:
            self.add_tokens(hex_, seat, -n)
            if self.loud:
                self.rec("destroyed", f"{n} token(s) of P{seat} destroyed at {self.map.labels[hex_]} ({why})",
                         seat=seat, hex=self.map.labels[hex_], count=n)
        return n

    def check_end(self, holder: int | None = None) -> None:
        """Players with no token left are out; one player left, or one controlling every world, wins.
        `holder`: a seat the caller knows has tokens (it just moved some), not searched for them."""
        if self.result is not None:
            return
        held = self.held
        if not self.out and all(held):
            # (the usual case, a few hundred times a game: nobody goes out and two or more seats
            # are left, so only a seat holding every world alone can end the game: it holds at
            # least as many hexes as there are worlds, and tokens on each of them)
            worlds = self.worlds
            if max(map(len, held)) >= len(worlds) and any(map(set.issuperset, held, repeat(worlds))):
                self._every_world()
            return
        alive: Sequence[int] = self.alive() if self.out else range(self.seats)
        for s in alive:
            if s == holder or held[s]:
                continue
            self.out.append(s)
            self.discard.extend(self.hands[s])
            self.hands[s] = []
            self.rec("out", f"P{s} has no token left and is out of the game", seat=s)
        if len(self.out) + len(alive) != self.seats:  # someone went out just now
            alive = self.alive()
        if self._every_world():
            return
        if len(alive) == 1:
            self._win(alive[0], "last race standing")

    def _every_world(self) -> bool:
        """True (and the game won) when one seat alone has tokens on every world."""
        worlds, held, rows = self.worlds, self.held, self.tokens
        if worlds:
            for s in range(self.seats):  # (one seat at most holds every world alone)
                if held[s].issuperset(worlds) and all(sum(rows[h]) == rows[h][s] for h in worlds):
                    self._win(s, "controls every world")
                    return True
        return False

    def _win(self, seat: int, reason: str) -> None:
        others = [s for s in self.alive() if s != seat]
        order = [[seat]] + ([others] if others else []) + [[s] for s in reversed(self.out)]
        self.result = Outcome.placing(order, self.seats, reason)
        self.rec("win", f"P{seat} wins: {reason}", seat=seat)

    def cap(self) -> None:
        self.result = Outcome.draw(self.seats, "turn cap", capped=True)
        self.rec("capped", f"turn cap {self.settings.turn_cap} reached: the game is a draw")

    # ---- positions, observations, clones --------------------------------------------------------
    def position(self) -> dict[str, Any]:
        out = position_header(GAME, self.seats)
        labels = self.map.labels
        out["worlds"] = {labels[h]: w for h, w in sorted(self.worlds.items())}
        out["tokens"] = {labels[h]: list(t) for h, t in enumerate(self.tokens) if any(t)}
        for f in FIELDS:
            value = getattr(self, f)
            # Piles of cards and lists of seats copy as they are (plain_copy's answer, found faster:
            # agents ask for an observation at every decision).
            if f in _FLAT:
                out[f] = list(value)
            elif f in _PER_SEAT:
                out[f] = [list(v) for v in value]
            else:
                out[f] = plain_copy(value)
        out["pool"] = dict(sorted(self.pool.items()))
        return out

    def observation(self, seat: int) -> dict[str, Any]:
        """The position as `seat` may know it: other hands, the deck's order and the other side's
        committed Force cards are hidden ("?"); Spies see the opponent's hand in their conflict."""
        pos = self.position()
        pos["hands"] = [h if s == seat or sees_hand(self, seat, s) else [HIDDEN] * len(h) for s, h in enumerate(pos["hands"])]
        seen = int(self.turnstate.get("psychic", 0)) if seat == self.seat else 0
        deck = pos["deck"]
        pos["deck"] = [HIDDEN] * max(0, len(deck) - seen) + deck[max(0, len(deck) - seen):]
        c = pos["conflict"]
        if c and c.get("reveal") and not c.get("shown"):
            c["reveal"] = [v if s == seat or v is None else [HIDDEN] * len(v) for s, v in enumerate(c["reveal"])]
        pos["observer"] = seat
        pos["to_act"] = list(self.to_act())
        return pos

    def clone(self) -> "AlienState":
        twin = AlienState.__new__(AlienState)
        twin.static, twin.seats = self.static, self.seats
        twin.table, twin.map, twin.settings = self.table, self.map, self.settings
        twin.keep_forced = self.keep_forced
        twin.chance = self.chance.fork()
        twin.log = list(self.log)
        twin.loud = self.loud
        twin.rec = EventRecorder(twin.log) if self.loud else _QUIET
        twin.worlds = dict(self.worlds)
        twin.tokens = list(map(list.copy, self.tokens))
        twin.order, twin.active, twin.turn, twin.round = list(self.order), self.active, self.turn, self.round
        twin.out = list(self.out)
        twin.hands = [list(h) for h in self.hands]
        twin.deck, twin.discard = list(self.deck), list(self.discard)
        twin.destiny = [list(d) for d in self.destiny]
        twin.does = list(self.does)
        twin.turnstate = _flat_copy(self.turnstate)
        twin.conflict = plain_copy(self.conflict)
        twin.stack = [_flat_copy(e) for e in self.stack]
        twin.played = [list(p) for p in self.played]
        twin.neutral = self.neutral
        twin.result = self.result
        twin._lseat, twin._lacts, twin._lset, twin._acting = self._lseat, self._lacts, self._lset, self._acting
        twin.free_memo = twin.discard_memo = None  # (they name a stack entry of this state, which the twin copies)
        twin.held = [set(h) for h in self.held]
        twin.pool = self.pool
        return twin

    def __repr__(self) -> str:
        return f"<Alien Empires turn {self.turn}, P{self.seat} to play, out {self.out}>"


_FLAT = frozenset({"order", "out", "deck", "discard", "neutral"})  # fields that are flat lists of str or int
_PER_SEAT = frozenset({"hands", "destiny", "played"})  # lists of cards, one per seat


class _Quiet:
    """The recorder of a muted state: records nothing."""

    __slots__ = ()

    def __call__(self, kind: str, text: str = "", seen_by: tuple[int, ...] | None = None, **data: Any) -> None:
        pass

    def take(self) -> tuple[Event, ...]:
        return ()


_QUIET = _Quiet()


def _flat_copy(entry: dict[str, Any]) -> dict[str, Any]:
    """A copy of a dict whose values are atoms or flat lists and dicts (a stack entry, the turn's
    state): faster than plain_copy, which clone() would otherwise spend most of its time in."""
    out = dict(entry)
    for k, v in out.items():
        if type(v) is list or type(v) is dict:
            out[k] = v.copy()
    return out


def _tuple(action: Any) -> Any:
    if isinstance(action, list):
        return tuple(_tuple(a) for a in action)
    return action
