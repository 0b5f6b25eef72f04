"""Orchard's neutral stand-in for a card in balance tests by intervention.

A tree becomes a plain tree of the same cost that grows what the set's other trees of that cost
typically grow (the median of their `grow` points; a tree that only draws counts 0), with no other
effect: an average tree for its cost then reads about 0, a strong one positive. The tree under test
is never among the trees its filler's median is taken from; with fewer than three other trees at
its cost, the filler grows what the set's other trees typically grow, and its name says so.
"""

from cardsmith.engine.kit.fillers import alike, median, plain


def filler(card, cardset):
    cost = cardset.attribute(card, "cost")
    others, note = alike(cardset.cards, card, lambda other: cardset.attribute(other, "cost") == cost)
    points = median(sum(e["points"] for e in other.effects if e["do"] == "grow") for other in others)
    return plain(card, f"plain tree{note}", {"cost": cost}, ({"do": "grow", "points": points},))
