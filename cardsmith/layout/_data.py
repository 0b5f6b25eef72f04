"""Card text is data: a value from a set reaches a layout as `Data`, and prints as itself.

Rich text (`_richtext`) reads `*`, `{ICON}` and `\\` as markup. Markup must come from the layout,
never from a card's value, so every string a layout is given (`card.*`, `set.*`, `faction.*`, a
back's keys, a component's data) is a `Data`: a `str` that compares, measures (`length`) and tests
(`in`, `==`) as its value, but turns into rich-text-escaped text whenever it becomes text: printed
with `{{ }}`, joined with `~` or `join`, or formatted with `%`. So `*{{ card.flavor }}*` puts the
whole flavour in italics whatever it holds, and a layout cannot forget to escape.

A field meant to carry markup (rules text with `{E}` icons or `**bold**`) is taken as markup only
when the layout says so: `{{ card.text | markup }}` (`safe` does the same on a field; on a
macro's output it keeps Jinja's meaning: written into the layout's YAML as it is).
Text operations on a value (`upper`, slicing, `split`, `partition`, `title`...) give `Data` again.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Iterator, SupportsIndex

_SPECIAL = re.compile(r"([\\*{])")


def escape(text: str) -> str:
    """`text` with every rich-text markup character escaped, so it prints exactly as written."""
    return _SPECIAL.sub(r"\\\1", str.__str__(text))


class Data(str):
    """A string from a set's data: escaped for rich text whenever it becomes text."""

    __slots__ = ()

    def __str__(self) -> str:
        return escape(self)

    def __format__(self, spec: str) -> str:
        return format(escape(self), spec)

    def raw(self) -> str:
        """The value as written (markup characters not escaped)."""
        return str.__str__(self)

    def __getitem__(self, key: SupportsIndex | slice) -> "Data":
        return Data(str.__getitem__(self, key))

    def __iter__(self) -> Iterator[str]:
        return (Data(ch) for ch in str.__iter__(self))

    def __add__(self, other: str) -> str:
        return escape(self) + str(other)

    def __radd__(self, other: str) -> str:
        return str(other) + escape(self)

    def __mod__(self, args: Any) -> str:
        return escape(self) % args


def _keeps_data(name: str) -> Callable[..., Any]:
    method = getattr(str, name)

    def wrapped(self: Data, *args: Any, **kwargs: Any) -> Any:
        return _wrap_result(method(str.__str__(self), *args, **kwargs))

    wrapped.__name__ = name
    return wrapped


def _wrap_result(value: Any) -> Any:
    if isinstance(value, str):
        return Data(value)
    if isinstance(value, (list, tuple)):
        return type(value)(_wrap_result(v) for v in value)
    return value


for _name in ("capitalize", "casefold", "center", "expandtabs", "ljust", "lower", "lstrip", "partition",
              "removeprefix", "removesuffix", "rjust", "rpartition", "rsplit", "rstrip", "split", "splitlines",
              "strip", "swapcase", "title", "upper", "zfill"):
    setattr(Data, _name, _keeps_data(_name))


def as_data(value: Any) -> Any:
    """`value` with every string inside (dict values, list items) made `Data`; keys and other types as they are."""
    if isinstance(value, Data):
        return value
    if isinstance(value, str):
        return value if type(value) is not str else Data(value)  # Markup and other marked strings stay
    if isinstance(value, dict):
        return {k: as_data(v) for k, v in value.items()}
    if isinstance(value, list):
        return [as_data(v) for v in value]
    if isinstance(value, tuple):
        return tuple(as_data(v) for v in value)
    return value


def markup(value: Any) -> Any:
    """The `markup` filter: a value taken as rich text, its `*`, `{ICON}` and `\\` read as markup."""
    if isinstance(value, Data):
        return value.raw()
    return value


def title(value: Any) -> Any:
    """Jinja's `title` splits with a regular expression (which drops the `Data` mark): keep it."""
    if isinstance(value, Data):
        return value.title()
    from jinja2.filters import do_title
    return do_title(value)
