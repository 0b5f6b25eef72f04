"""What one layout may spend on one card face (issue 32): string widths checked before a string is
built, memory watched while the layout runs, and the size of what it produced.

The sandbox already caps `*` and `**` and `range`; these close the other ways round: `join`, `ljust`,
`center`, `format` and `%` widths (one reached 2.49 GB), `replace` and `+`, YAML aliases that expand
a few lines into millions of nodes, and tens of thousands of layers.
"""

from __future__ import annotations

import re
import string
from typing import Any

from jinja2.sandbox import SecurityError

from cardsmith.base.limits import MAX_LAYOUT_LAYERS, MAX_LAYOUT_NODES, MAX_LAYOUT_OUTPUT, MAX_LAYOUT_STRING


class TooLarge(SecurityError):
    """A layout asked for a value too large for memory ("x" * 10**9, "{:>1000000000}")."""


def _refuse(what: str) -> None:
    raise TooLarge(f"{what}; a layout may build strings of up to {MAX_LAYOUT_STRING:,} characters")


def _width(value: Any, what: str) -> None:
    if isinstance(value, int) and not isinstance(value, bool) and value > MAX_LAYOUT_STRING:
        _refuse(f"a width of {value:,} in {what}")


def _join_size(items: Any, sep: Any) -> None:
    if isinstance(items, (list, tuple, str, dict, range)):
        total = len(str(sep)) * max(0, len(items) - 1)
        for x in items:
            total += len(x) if isinstance(x, str) else 8
            if total > MAX_LAYOUT_STRING:
                _refuse(f"joining {len(items):,} items")
        if total > MAX_LAYOUT_STRING:
            _refuse(f"joining {len(items):,} items")


def _replace_size(text: Any, old: Any, new: Any, count: Any = -1) -> None:
    if isinstance(text, str) and isinstance(old, str) and isinstance(new, str):
        n = text.count(old) if old else len(text) + 1
        if isinstance(count, int) and count >= 0:
            n = min(n, count)
        if len(text) + n * len(new) > MAX_LAYOUT_STRING:
            _refuse(f"a replace making {len(text) + n * len(new):,} characters")


_PERCENT = re.compile(r"%(?:\([^)]*\))?[-#0 +]*(\*|\d+)?(?:\.(\*|\d+))?")


def percent_format(fmt: Any, args: Any) -> None:
    """`fmt % args` refused when a width or precision is too large (`%*s` takes it from args)."""
    if not isinstance(fmt, str):
        return
    starred = False
    for m in _PERCENT.finditer(fmt):
        for g in m.groups():
            if g == "*":
                starred = True
            elif g:
                _width(int(g), "a % format")
    if starred:
        for a in args if isinstance(args, tuple) else (args,):
            _width(a, "a % format")


def brace_format(fmt: str, args: tuple, kwargs: dict) -> None:
    """`fmt.format(...)` refused when a field's width or precision is too large, or taken from an argument."""
    try:
        fields = list(string.Formatter().parse(fmt))
    except ValueError:
        return  # str.format reports it
    for _, _, spec, _ in fields:
        if not spec:
            continue
        if "{" in spec:  # width from an argument: judge every number given
            for a in (*args, *kwargs.values()):
                _width(a, "a format")
        for digits in re.findall(r"\d+", spec):
            _width(int(digits), "a format")


_STR_METHODS = {"ljust", "rjust", "center", "zfill"}


def check_call(obj: Any, args: tuple, kwargs: dict) -> None:
    """A call a layout makes, refused when it would build a string too large."""
    owner, name = getattr(obj, "__self__", None), getattr(obj, "__name__", "")
    if not isinstance(owner, str):
        return
    if name in _STR_METHODS and args:
        _width(args[0], f"str.{name}")
    elif name == "expandtabs" and args and isinstance(args[0], int):
        _width(args[0] * max(1, owner.count("\t")), "str.expandtabs")
    elif name == "join" and args:
        _join_size(args[0], owner)
    elif name == "replace" and len(args) >= 2:
        _replace_size(owner, *args[:3])
    elif name == "__mod__" and args:
        percent_format(owner, args[0])


def check_filter(name: str, value: Any, args: tuple, kwargs: dict) -> None:
    """A filter call, refused when it would build a string too large."""
    if name in ("center", "indent", "wordwrap", "truncate"):
        for a in (*args, *kwargs.values()):
            _width(a, f"the {name} filter")
        if name == "indent" and isinstance(value, str) and args and isinstance(args[0], int):
            _width(args[0] * (value.count("\n") + 1), "the indent filter")
    elif name == "join":
        _join_size(value, args[0] if args else kwargs.get("d", ""))
    elif name == "replace" and len(args) >= 2:
        _replace_size(str(value), *args[:3])
    elif name == "format":
        percent_format(value, args or tuple(kwargs.values()))


_WIDE_FILTERS = ("center", "indent", "wordwrap", "truncate", "join", "replace", "format")


def checked_filters(filters: dict[str, Any]) -> dict[str, Any]:
    """Jinja's filters that can build long strings, each checked by `check_filter` first (templates call
    filters directly, not through the sandbox)."""
    import functools

    out = {}
    for name in _WIDE_FILTERS:
        original = filters[name]
        skip = 1 if hasattr(original, "jinja_pass_arg") else 0  # the context Jinja passes first

        @functools.wraps(original)
        def checked(*args: Any, __name: str = name, __original: Any = original, __skip: int = skip, **kwargs: Any) -> Any:
            rest = args[__skip:]
            if rest:
                check_filter(__name, rest[0], tuple(rest[1:]), kwargs)
            return __original(*args, **kwargs)
        out[name] = checked
    return out


def check_concat(left: Any, right: Any) -> None:
    """`a + b` on strings or lists: doubling in a loop reaches gigabytes in thirty steps."""
    if isinstance(left, (str, list, tuple)) and isinstance(right, (str, list, tuple)) \
            and len(left) + len(right) > MAX_LAYOUT_STRING:
        _refuse(f"a value of {len(left) + len(right):,} items made with +")


def check_length(n: int, how: str) -> None:
    """A string of `n` characters about to be made with `how`, refused when too long."""
    if n > MAX_LAYOUT_STRING:
        _refuse(f"a value of {n:,} characters made with {how}")


def check_output(text: str, what: str) -> str | None:
    """Why a layout's rendered text is too large to read as YAML, or None."""
    if len(text) > MAX_LAYOUT_OUTPUT:
        return f"the layout wrote {len(text):,} characters for {what}; at most {MAX_LAYOUT_OUTPUT:,}"
    return None


def check_tree(data: Any, what: str) -> str | None:
    """Why a layout's parsed output is too large (YAML aliases repeat a node without copying it, so
    a few lines can stand for millions of nodes once walked), or None."""
    sizes: dict[int, int] = {}
    busy: set[int] = set()

    def size(node: Any) -> int:
        if not isinstance(node, (dict, list)):
            return 1
        key = id(node)
        if key in sizes:
            return sizes[key]
        if key in busy:
            return MAX_LAYOUT_NODES + 1  # a node that holds itself
        busy.add(key)
        children = node.values() if isinstance(node, dict) else node
        n = 1
        for c in children:
            n += size(c)
            if n > MAX_LAYOUT_NODES:
                break
        busy.discard(key)
        sizes[key] = n
        return n

    if size(data) > MAX_LAYOUT_NODES:
        return f"the layout's output for {what} expands to more than {MAX_LAYOUT_NODES:,} values (YAML aliases?)"
    layers = data.get("layers") if isinstance(data, dict) else None
    if isinstance(layers, list) and len(layers) > MAX_LAYOUT_LAYERS:
        return f"the layout draws {len(layers):,} layers for {what}; at most {MAX_LAYOUT_LAYERS:,}"
    return None


def resident_bytes() -> int:
    """This process's resident memory now (Linux's /proc; 0 where there is none, which turns the watch off)."""
    try:
        with open("/proc/self/statm", "rb") as f:
            return int(f.read().split()[1]) * 4096
    except (OSError, ValueError, IndexError):
        return 0
