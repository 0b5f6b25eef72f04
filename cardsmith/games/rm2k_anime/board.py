"""The #rm2k_anime table: seats, Users with their Lag and Syncing cards, and the moves between zones
that the rules (`flow`, `challenge`, `events`) make. `state.RmState` adds the game contract on top;
the rules modules, `observation` and `positions` need only this, so none of them imports the state.

Cards in hands, decks and piles are card ids (copies of a card are alike). A User in play or in
Limbo is a `Slot` in its seat's `users` list: its card, Lag, permanent Bandwidth loss (`ping`), the
face-down Syncing card on it with its Sync tokens, and its Attach cards. Actions name Users by their
index in that list. `stage` says where the turn stands and `dec` which decision `actor` takes.
"""

from __future__ import annotations

from typing import Any, Mapping

from cardsmith.engine.contract import Chance
from cardsmith.engine.kit import EventRecorder
from cardsmith.games.rm2k_anime.cards import CardInfo


class Slot:
    """One User on the table (in play, or in Limbo until its owner's Draw Phase)."""

    __slots__ = ("card", "lag", "ping", "limbo", "attacked", "sync", "tokens", "attached", "main")

    def __init__(self, card: str, lag: int = 0, ping: int = 0, limbo: bool = False, attacked: bool = False,
                 sync: str | None = None, tokens: int = 0, attached: list[str] | None = None, main: bool = False):
        self.card, self.lag, self.ping, self.limbo, self.attacked = card, lag, ping, limbo, attacked
        self.sync, self.tokens, self.attached, self.main = sync, tokens, list(attached or []), main

    def copy(self) -> "Slot":
        return Slot(self.card, self.lag, self.ping, self.limbo, self.attacked, self.sync, self.tokens,
                    self.attached, self.main)


class Seat:
    """One player's cards and scores. `deck` draws from its end; `picks` are the starting Users
    chosen face down during preparation (the first is the Main User)."""

    __slots__ = ("deck", "hand", "disc", "scored", "aside", "users", "vp", "won", "had_turn", "picks")

    def __init__(self) -> None:
        self.deck: list[str] = []
        self.hand: list[str] = []
        self.disc: list[str] = []
        self.scored: list[str] = []
        self.aside: list[str] = []
        self.users: list[Slot] = []
        self.vp = 0
        self.won = 0
        self.had_turn = False
        self.picks: list[str] = []

    def copy(self) -> "Seat":
        s = Seat.__new__(Seat)
        s.deck, s.hand, s.disc, s.scored, s.aside = self.deck[:], self.hand[:], self.disc[:], self.scored[:], self.aside[:]
        s.users = [u.copy() for u in self.users]
        s.vp, s.won, s.had_turn, s.picks = self.vp, self.won, self.had_turn, self.picks[:]
        return s

    def all_cards(self) -> list[str]:
        out = self.deck + self.hand + self.disc + self.scored + self.aside + self.picks
        for u in self.users:
            out.append(u.card)
            out += u.attached
            if u.sync is not None:
                out.append(u.sync)
        return out


class Board:
    """The table of one #rm2k_anime game, without the contract (see `state.RmState`)."""

    seats = 2

    def __init__(self, infos: Mapping[str, CardInfo], chance: Chance, budget: int, turn_cap: int):
        self.infos = infos
        self.chance = chance
        self.budget = budget
        self.turn_cap = turn_cap
        self.log: list[str] = []
        self.rec = EventRecorder(self.log)
        self.p = [Seat(), Seat()]
        self.turn = 1
        self.active = 0
        self.first_player: int | None = None
        self.stage = "setup"
        self.dec: str | None = None
        self.actor = 0
        self.lag_left = 0
        self.ch: dict[str, Any] | None = None  # the Challenge being resolved
        self.pending: dict[str, Any] | None = None  # an Event played, waiting for a React
        self.passes = 0
        self.winner: int | None = None
        self.end_reason = ""
        self.played: list[set[str]] = [set(), set()]
        self._legal: tuple | None = None

    # ------------------------------------------------------------------ reading the table
    def info(self, cid: str) -> CardInfo:
        return self.infos[cid]

    def bandwidth(self, u: Slot) -> int:
        """A User's Bandwidth now: printed, less permanent loss, plus Attach bonuses (never below 0)."""
        bw = self.infos[u.card].bandwidth - u.ping
        for a in u.attached:
            p = self.infos[a].effect("bandwidth_bonus")
            if p:
                bw += int(p["amount"])
        return max(0, bw)

    def free(self, u: Slot) -> int:
        """Free Bandwidth: what the User may still take as Lag (0 in Limbo: it cannot use Bandwidth)."""
        return 0 if u.limbo else max(0, self.bandwidth(u) - u.lag)

    def pinged_out(self, u: Slot) -> bool:
        """Bandwidth permanently 0: printed Bandwidth less permanent losses (Attach bonuses do not count)."""
        return self.infos[u.card].bandwidth - u.ping <= 0

    def skill(self, u: Slot, k: int) -> int:
        """The User's level in skill k with its Attach bonuses; an immunity counts as 0."""
        ci = self.infos[u.card]
        if ci.immune[k]:
            return 0
        v = ci.skills[k]
        for a in u.attached:
            for n, p in self.infos[a].fx:
                if n == "skill_bonus" and p["skill"] == _SKILL_NAMES[k]:
                    v += int(p["amount"])
        return v

    def immune(self, u: Slot, k: int) -> bool:
        return k >= 0 and self.infos[u.card].immune[k]

    def in_play(self, seat: int) -> list[int]:
        return [i for i, u in enumerate(self.p[seat].users) if not u.limbo]

    def requirement(self, seat: int, params: Mapping[str, Any]) -> bool:
        """Whether `seat` meets a Victory Condition's or Goal's requirement."""
        me, opp = self.p[seat], self.p[1 - seat]
        live = [u for u in me.users if not u.limbo]
        need, have = int(params["at_least"]), 0
        r = params["require"]
        if r == "users":
            have = len(live)
        elif r == "attached":
            have = sum(len(u.attached) for u in live)
        elif r == "skill":
            k = _SKILL_NAMES.index(params["skill"])
            have = sum(self.skill(u, k) for u in live)
        elif r == "opponent_lag":
            have = sum(u.lag for u in opp.users)
        elif r == "challenges_won":
            have = me.won
        elif r == "vp":
            have = me.vp
        elif r == "hand":
            have = len(me.hand)
        elif r == "lag_free":
            have = sum(1 for u in live if u.lag == 0)
        return have >= need

    # ------------------------------------------------------------------ moves
    def ask(self, dec: str, seat: int) -> None:
        self.dec, self.actor = dec, seat

    def draw(self, seat: int, n: int = 1) -> None:
        d, h = self.p[seat].deck, self.p[seat].hand
        for _ in range(n):
            if d:
                h.append(d.pop())
        self.rec("draw", f"  P{seat} draws {n}", seat=seat, cards=n)

    def mark_played(self, seat: int, cid: str) -> None:
        self.played[seat].add(cid)

    def delete_sync(self, seat: int, u: Slot) -> None:
        if u.sync is not None:
            self.rec("deleted", f"  the Syncing card on {self.infos[u.card].name} (P{seat}) is Deleted "
                     f"with {u.tokens} Sync tokens", seat=seat)
            self.p[seat].disc.append(u.sync)
            u.sync, u.tokens = None, 0

    def remove_user(self, seat: int, i: int) -> None:
        """A User leaves play: its Syncing card is Deleted, its Attach cards discarded."""
        u = self.p[seat].users.pop(i)
        self.delete_sync(seat, u)
        self.p[seat].disc += u.attached + [u.card]
        self.rec("user deleted", f"  {self.infos[u.card].name} (P{seat}) leaves play", seat=seat, card=u.card)

    def end(self, winner: int | None, reason: str, why: str) -> None:
        if self.end_reason:
            return
        self.winner, self.end_reason, self.dec = winner, reason, None
        self.rec("game over", f"Game over: {'draw' if winner is None else f'player {winner} wins'} ({reason}: {why})",
                 winner=winner, reason=reason)

    def end_by_vp(self, reason: str, why: str) -> None:
        """A draw game: "both players compare Victory Points, and the player with the highest total wins"."""
        a, b = self.p[0].vp, self.p[1].vp
        self.end(None if a == b else (0 if a > b else 1), reason, f"{why}; Victory Points {a} to {b}")


    def finish_challenge(self, why: str, result: dict | None = None) -> None:
        """The Challenge ends (resolved, or cancelled by a React): its card is discarded and its seat
        may challenge again. A drawn Challenge's `result` data makes this its `result` event."""
        ch = self.ch
        assert ch is not None
        if not ch.get("marked"):  # cancelled by a React: its Attackers did take part
            for i in ch["att"]:
                self.p[ch["seat"]].users[i].attacked = True
        self.p[ch["seat"]].disc.append(ch["card"])
        self.rec("result" if result else "challenge over", f"  {self.info(ch['card']).name}: {why}", card=ch["card"],
                 **(result or {}))
        self.ch = None
        self.ask("challenge", ch["seat"])


_SKILL_NAMES = ("roleplay", "otaku", "argue", "script", "gamer")
