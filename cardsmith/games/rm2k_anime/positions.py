"""Positions: a state as plain data (YAML-ready) and back. Users are written in their seat's order
(actions name them by that index); every entry but `seats:` may be left out by hand."""

from __future__ import annotations

from typing import Any, Mapping, TypeVar

from cardsmith.engine.contract import Chance, PositionError
from cardsmith.engine.kit import parse_position, plain_copy, position_header
from cardsmith.engine.kit.shape import check_position, first_moves, guarded
import cardsmith.games.rm2k_anime.position_schema as position_schema
from cardsmith.games.rm2k_anime.cards import ATTACH, NAME, USER, CardInfo
from cardsmith.games.rm2k_anime.board import Board, Seat, Slot

S = TypeVar("S", bound=Board)
_PILES = ("deck", "hand", "discard", "scored", "aside", "picks")


def _slot_data(u: Slot) -> dict[str, Any]:
    return {"card": u.card, "lag": u.lag, "ping": u.ping, "limbo": u.limbo, "attacked": u.attacked,
            "main": u.main, "syncing": u.sync, "tokens": u.tokens, "attached": list(u.attached)}


def to_position(s: Board) -> dict[str, Any]:
    out = position_header(NAME, 2)
    out.update({
        "turn": s.turn, "active": s.active, "first_player": s.first_player, "stage": s.stage,
        "decision": s.dec, "actor": s.actor, "lag_left": s.lag_left, "passes": s.passes,
        "challenge": plain_copy(s.ch), "pending": plain_copy(s.pending),
        "winner": s.winner, "end_reason": s.end_reason, "played": [sorted(x) for x in s.played],
        "seats": [{"vp": p.vp, "won": p.won, "had_turn": p.had_turn,
                   **{k: list(getattr(p, "disc" if k == "discard" else k)) for k in _PILES},
                   "users": [_slot_data(u) for u in p.users]} for p in s.p],
    })
    return out


def _card(infos: Mapping[str, CardInfo], cid: Any, where: str) -> str:
    if not isinstance(cid, str) or cid not in infos:
        raise PositionError(f"{where}: no card '{cid}' in the set")
    return cid


def _seat(infos: Mapping[str, CardInfo], d: Mapping[str, Any], n: int) -> Seat:
    p = Seat()
    for k in _PILES:
        cards = [_card(infos, c, f"seats[{n}].{k}") for c in (d.get(k) or [])]
        setattr(p, "disc" if k == "discard" else k, cards)
    p.vp, p.won, p.had_turn = int(d.get("vp", 0)), int(d.get("won", 0)), bool(d.get("had_turn", True))
    for i, u in enumerate(d.get("users") or []):
        where = f"seats[{n}].users[{i}]"
        if not isinstance(u, Mapping):
            raise PositionError(f"{where}: a User is a mapping with `card:`")
        if infos[u["card"]].type != USER:
            raise PositionError(f"{where}.card: '{u['card']}' is not a User card")
        for c in u.get("attached") or []:
            if infos[c].type != ATTACH:
                raise PositionError(f"{where}.attached: '{c}' is not an Attach card")
        sync = u.get("syncing")
        p.users.append(Slot(_card(infos, u.get("card"), where), int(u.get("lag", 0)), int(u.get("ping", 0)),
                            bool(u.get("limbo", False)), bool(u.get("attacked", False)),
                            None if sync is None else _card(infos, sync, where + ".syncing"), int(u.get("tokens", 0)),
                            [_card(infos, c, where + ".attached") for c in (u.get("attached") or [])],
                            bool(u.get("main", i == 0))))
    return p


def from_position(new: type[S], infos: Mapping[str, CardInfo], data: Mapping[str, Any] | str, chance: Chance,
                  budget: int, turn_cap: int) -> S:
    """A state of class `new` (`RmState`; passed in, as the state imports this module to write its
    positions) from `to_position` data (or its YAML text); PositionError names a bad entry."""
    if isinstance(data, str):
        data = parse_position(data, NAME)
    seats = data.get("seats")
    if not isinstance(seats, list) or len(seats) != 2:
        raise PositionError("a #rm2k_anime position has `seats:`, a list of two seats")
    data = check_position(data, position_schema.schema(), infos)
    return guarded(lambda: build(new, infos, data, chance, budget, turn_cap), first_moves)


def build(new: type[S], infos: Mapping[str, CardInfo], data: Mapping[str, Any], chance: Chance, budget: int,
          turn_cap: int) -> S:
    """The state (of class `new`) of position data already checked (or taken from a valid state)."""
    seats = data["seats"]
    s = new(infos, chance, budget, turn_cap)
    s.p = [_seat(infos, d or {}, n) for n, d in enumerate(seats)]
    s.turn = int(data.get("turn", 1))
    s.active = int(data.get("active", 0))
    s.first_player = data.get("first_player", 0)
    s.stage = str(data.get("stage", "main"))
    s.dec = data.get("decision", "main")
    s.actor = int(data.get("actor", s.active))
    s.lag_left, s.passes = int(data.get("lag_left", 0)), int(data.get("passes", 0))
    s.ch = plain_copy(data.get("challenge"))
    s.pending = plain_copy(data.get("pending"))
    if s.pending is not None and "resume" not in s.pending:  # back to the decision the Event was played in
        by = s.pending["seat"]
        s.pending["resume"] = ["window", 1 - by] if s.ch is not None else ["main", by]
    s.winner, s.end_reason = data.get("winner"), str(data.get("end_reason") or "")
    s.played = [set(x) for x in (data.get("played") or [[], []])]
    if s.active not in (0, 1) or s.actor not in (0, 1):
        raise PositionError("`active:` and `actor:` are seats 0 or 1")
    return s
