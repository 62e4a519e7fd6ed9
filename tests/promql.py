"""The series a PromQL expression selects: metric names and their label matchers.
Grafana's variables ($__rate_interval, ${topic}) are taken as opaque tokens.

A small tokenizer, enough for dashboard queries (no maintained PromQL parser installs from
PyPI here): an identifier is a metric name unless a `(` follows it (a function), it is
an aggregation or another keyword, or it stands inside `{...}` (matchers), `[...]` (a range)
or the label list of by/without/on/ignoring/group_left/group_right.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_TOKEN = re.compile(r'\s+|(?P<string>"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\')|(?P<ident>[A-Za-z_:][A-Za-z0-9_:]*)'
                    r'|(?P<number>\d[\w.]*)|(?P<variable>\$\{?[A-Za-z_]\w*\}?)|(?P<op>=~|!~|!=|==|>=|<=|[-+*/%^<>=(){}\[\],@])|(?P<other>\S)')
_AGGREGATIONS = {"sum", "min", "max", "avg", "group", "stddev", "stdvar", "count", "count_values", "bottomk",
                 "topk", "quantile", "limitk", "limit_ratio"}
_KEYWORDS = {"by", "without", "on", "ignoring", "group_left", "group_right", "bool", "and", "or", "unless",
             "offset", "inf", "nan", *_AGGREGATIONS}
_LABEL_LISTS = {"by", "without", "on", "ignoring", "group_left", "group_right"}


@dataclass
class Selector:
    name: str
    matchers: list[tuple[str, str, str]] = field(default_factory=list)  # (label, op, value)


def tokens(expr: str) -> list[tuple[str, str]]:
    out = []
    for m in _TOKEN.finditer(expr):
        kind = m.lastgroup
        if kind is None:  # whitespace
            continue
        if kind == "other":
            raise ValueError(f"unexpected {m.group()!r} in {expr!r}")
        out.append((kind, m.group()))
    return out


def _unquote(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text[1:-1])


def selectors(expr: str) -> list[Selector]:
    """The vector selectors of `expr`, in order."""
    toks = tokens(expr)
    found: list[Selector] = []
    i = 0
    while i < len(toks):
        kind, text = toks[i]
        nxt = toks[i + 1][1] if i + 1 < len(toks) else ""
        if kind == "ident" and text in _LABEL_LISTS and nxt == "(":
            i = toks.index(("op", ")"), i) + 1
        elif kind == "ident" and text not in _KEYWORDS and nxt != "(":
            selector = Selector(text)
            found.append(selector)
            i += 1
            if nxt == "{":
                i = _matchers(toks, i + 1, selector)
        elif text == "{":  # a selector by matchers only
            i = _matchers(toks, i + 1, Selector(""))
        elif text == "[":
            i = toks.index(("op", "]"), i) + 1
        else:
            i += 1
    return found


def _matchers(toks: list[tuple[str, str]], i: int, selector: Selector) -> int:
    """Read `label op "value"` pairs up to the closing brace; the index after it."""
    while toks[i][1] != "}":
        if toks[i][1] == ",":
            i += 1
            continue
        label, op, (kind, value) = toks[i][1], toks[i + 1][1], toks[i + 2]
        if kind != "string":
            raise ValueError(f"matcher {label}{op} has no string value")
        selector.matchers.append((label, op, _unquote(value)))
        i += 3
    return i + 1
