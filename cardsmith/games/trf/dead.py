"""A dead position: no sequence of legal actions can ever let either player take the other's homeworld.

The text ends the game only when "one player's homeworld is taken!"; a table where neither side can
ever gather the capture to do it would play on forever. As chess does, such a position is a draw
("dead position"), never a cap (docs/rules/trf.md, "Readings").

The test is an upper bound, so it may call a position alive that is dead, never the reverse. Taking
a homeworld needs, in one capture step, unblocked fleets whose capture plus the turn's capture bonus
(per fleet) reaches the homeworld value; fortifying only raises that value, so the printed value is
the least it can be. The fleets a seat could ever field together are at most every fleet card it
owns that is not lost for good: in play, in hand, in its deck (every card can be drawn), and in its
discard pile when something can bring it back (a buy revives a Unique, each `revive` OOC card one
character, a homeworld's `discard_revive` one of its tag for every `discard` cards left in hand and
deck). Costs, words, blockers and dice are all left out (the opponent may always choose not to block).
"""

from __future__ import annotations

from cardsmith.games.trf.board import Board

UNBOUNDED = 10**9


def is_dead(s: Board) -> bool:
    """True when neither seat can ever take the other's homeworld, whatever both players do."""
    for seat in (0, 1):
        need = least_homeworld(s, 1 - seat)
        # Checked as every turn ends: most of a game the fleets in play, hand and deck alone
        # reach the homeworld, so the full bound is worked out only near a stand-off.
        if _plain_reaches(s, seat, need) or best_capture(s, seat) >= need:
            return False
    return True


def _plain_reaches(s: Board, seat: int, need: int) -> bool:
    """Whether the capture of the fleets `seat` has in play, in hand and in its deck (a lower bound
    of `best_capture`) reaches `need`: summed until it does, as it mostly does early (in play or in hand)."""
    capture, p = s.g.fleet_capture, s.d["p"][seat]
    total = 0
    for c in s.d["chars"]:
        if c["owner"] == seat:
            total += capture.get(c["card"], 0)
    if total >= need:
        return True
    for cid in p["hand"]:
        total += capture.get(cid, 0)
    if total >= need:
        return True
    for cid in p["deck"]:
        total += capture.get(cid, 0)
        if total >= need:
            return True
    return False


def least_homeworld(s: Board, seat: int) -> int:
    """The lowest value `seat`'s homeworld can ever have: its printed homeworld value (fortify only adds)."""
    return s.g.infos[s.d["p"][seat]["homeworld"]].homeworld


def best_capture(s: Board, seat: int) -> int:
    """An upper bound on the capture `seat`'s fleets can ever bring to one planet in one turn."""
    g, p = s.g, s.d["p"][seat]
    # (Worked out whenever the quick bound fails, every turn of a stand-off: the per-card facts come
    # from tables made once per game, `TRFGame.__init__`.)
    in_play = [c["card"] for c in s.d["chars"] if c["owner"] == seat]
    # Cards used over and over (an account, a planet, a character's activated ability) that add
    # capture or bring any character back make the bound unbounded: the seat may always catch up.
    again = g.catching_up  # (no OOC card is in it: an OOC card is used once)
    if p["account"] in again or any(pl["card"] in again for pl in p["planets"]) \
            or any(not again.isdisjoint(zone) for zone in (in_play, p["hand"], p["deck"], p["discard"])):
        return UNBOUNDED
    capture, to_come = g.fleet_capture, p["hand"] + p["deck"]
    fleets = [capture[cid] for cid in in_play + to_come if cid in capture]
    fleets += _revivable(s, seat, sum(g.ooc_revives.get(cid, 0) for cid in to_come))
    bonus = sum(g.ooc_capture_bonus.get(cid, 0) for cid in to_come)
    if s.d["active"] == seat and s.d["phase"] in ("combat", "capture"):  # an OOC card played this turn
        bonus += s.d["capture_bonus"]
    return sum(fleets) + len(fleets) * max(0, bonus)


def _revivable(s: Board, seat: int, cards: int) -> list[int]:
    """The capture values of the fleets in `seat`'s discard pile that could come back into play
    (`cards`: the `revive` effects of the OOC cards `seat` has still to play)."""
    infos, p = s.g.infos, s.d["p"][seat]
    gone = sorted((infos[cid] for cid in p["discard"] if infos[cid].type == "character" and infos[cid].fleeter),
                  key=lambda i: -i.capture)
    # A buy revives a Unique character the account may play, as often as it likes.
    back = [i.capture for i in gone if i.unique and s.g.costs(p["account"], i.id) is not None]
    rest = [i for i in gone if not (i.unique and s.g.costs(p["account"], i.id) is not None)]
    # The homeworld's `discard_revive` (Azguard for Dolash) costs `discard` cards from the hand each
    # time, and a hand is only ever refilled from the deck: so many revivals at most, of its tag.
    for e in infos[p["homeworld"]].effect("discard_revive"):
        if e.get("account") == p["account"]:
            times = (len(p["hand"]) + len(p["deck"])) // max(1, int(e.get("discard", 1)))
            taken = [n for n, i in enumerate(rest) if e.get("tag") in i.tags][:times]
            back += [rest[n].capture for n in taken]
            rest = [i for n, i in enumerate(rest) if n not in taken]
    # Each `revive` OOC card still to come brings back one character: the best of the rest.
    return back + [i.capture for i in rest[:cards]]
