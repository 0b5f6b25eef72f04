"""The conformance checks compare observations as plain data; `same_plain` walks two at once and
must agree with comparing their `plain` forms, whatever the parts (it only skips shared parts)."""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from cardsmith.engine.checks import plain, same_plain


@dataclass
class Box:
    a: Any
    b: Any


class Slotted:
    __slots__ = ("x", "y")

    def __init__(self, x: Any, y: Any):
        self.x, self.y = x, y


atoms = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.sampled_from(["p", "q"]), st.just(1.0))
values = st.recursive(
    atoms,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.lists(inner, max_size=3).map(tuple),
        st.dictionaries(st.sampled_from(["k", "l", 1]), inner, max_size=3),
        st.dictionaries(st.sampled_from(["k", "l"]), inner, max_size=2).map(MappingProxyType),
        st.frozensets(st.integers(0, 3), max_size=3),
        st.builds(Box, inner, inner),
        st.builds(Slotted, inner, inner),
    ),
    max_leaves=12,
)


def _copy(v: Any) -> Any:
    """A copy sharing no container with `v` (deepcopy cannot copy a mappingproxy)."""
    if isinstance(v, MappingProxyType):
        return MappingProxyType({k: _copy(x) for k, x in v.items()})
    if isinstance(v, dict):
        return {k: _copy(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return type(v)(_copy(x) for x in v)
    if isinstance(v, Box):
        return Box(_copy(v.a), _copy(v.b))
    if isinstance(v, Slotted):
        return Slotted(_copy(v.x), _copy(v.y))
    return v


@settings(max_examples=300, deadline=None)
@given(values, values)
def test_same_plain_agrees_with_plain_on_any_two_values(a, b):
    assert same_plain(a, b) == (plain(a) == plain(b))


@settings(max_examples=200, deadline=None)
@given(values, values)
def test_same_plain_agrees_when_the_values_share_parts(shared, other):
    a, b = Box(shared, other), Box(shared, _copy(other))
    assert same_plain(a, b) and plain(a) == plain(b)
    c = Box(shared, (other, 1))
    assert same_plain(a, c) == (plain(a) == plain(c))


def test_a_difference_deep_inside_is_found():
    table = {"cards": [Box("x", (1, 2)), Slotted([1], {"k": 2})]}
    a = Box(table, [1, 2, Slotted("hand", ["c1", "c2"])])
    b = Box(table, [1, 2, Slotted("hand", ["c1", "c3"])])
    assert not same_plain(a, b)
    assert same_plain(a, Box(table, [1, 2, Slotted("hand", ("c1", "c2"))]))  # list and tuple alike, as plain
