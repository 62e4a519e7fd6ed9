"""KafkaPrincipal, and the SSL principal mapper (ssl.principal.mapping.rules).

A connection's principal is who authorizers see: User:ANONYMOUS on PLAINTEXT, the mapped
certificate subject on SSL, the SASL user name on SASL listeners.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field


@dataclass(frozen=True)
class KafkaPrincipal:
    principal_type: str
    name: str
    # Authenticated with a delegation token (SCRAM with tokenauth=true): such a connection
    # may not ask for tokens. Not part of equality, as in Kafka's KafkaPrincipal.
    token_authenticated: bool = field(default=False, compare=False)

    def __str__(self) -> str:
        return f"{self.principal_type}:{self.name}"


ANONYMOUS = KafkaPrincipal("User", "ANONYMOUS")


class NoMatchingRule(ValueError):
    """No ssl.principal.mapping.rules rule applies to a certificate's distinguished name."""


# Kafka's SslPrincipalMapper grammar: DEFAULT, or RULE:pattern/replacement/[LU], comma separated;
# '\' escapes '/' (and any character) inside pattern and replacement.
_RULE = r"(DEFAULT)|RULE:((?:\\.|[^\\/])*)/((?:\\.|[^\\/])*)/([LU]?)"
_SPLITTER = re.compile(r"\s*(" + _RULE + r")\s*(?:,\s*|$)")
_PARSER = re.compile(_RULE)


@dataclass(frozen=True)
class _Rule:
    pattern: re.Pattern[str] | None  # None: DEFAULT
    replacement: str = ""
    case: str = ""

    def apply(self, dn: str) -> str | None:
        if self.pattern is None:
            return dn
        if not self.pattern.fullmatch(dn):
            return None
        result = self.pattern.sub(self.replacement, dn, count=1)
        return result.lower() if self.case == "L" else result.upper() if self.case == "U" else result


def _java_replacement(text: str) -> str:
    """Java's $1 group references (and \\-escapes) as Python's re.sub template."""
    out = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "\\" and i + 1 < len(text):
            out.append(text[i + 1].replace("\\", "\\\\"))
            i += 2
            continue
        if ch == "$" and i + 1 < len(text) and text[i + 1].isdigit():
            out.append(f"\\g<{text[i + 1]}>")
            i += 2
            continue
        out.append("\\\\" if ch == "\\" else ch)
        i += 1
    return "".join(out)


class SslPrincipalMapper:
    """Maps a certificate subject (RFC 2253 form, as Java's X500Principal.getName()) to a
    user name with the first rule that matches; a DN no rule matches fails authentication."""

    def __init__(self, rules: str = "DEFAULT") -> None:
        self.rules: list[_Rule] = []
        text = rules.strip()
        pos = 0
        while pos < len(text):
            m = _SPLITTER.match(text, pos)
            if m is None or m.end() == pos:
                raise ValueError(f"Invalid rule: {text[pos:]}")
            parsed = _PARSER.fullmatch(m.group(1))
            if parsed is None:
                raise ValueError(f"Invalid rule: {m.group(1)}")
            if parsed.group(1):
                self.rules.append(_Rule(None))
            else:
                pattern = re.sub(r"\\/", "/", parsed.group(2))
                self.rules.append(_Rule(re.compile(pattern), _java_replacement(parsed.group(3)), parsed.group(4)))
            pos = m.end()
        if not self.rules:
            raise ValueError("Invalid rule: no rules")

    def name_for(self, dn: str) -> str:
        for rule in self.rules:
            name = rule.apply(dn)
            if name is not None:
                return name
        raise NoMatchingRule(f"No rules apply to {dn}, rules {self.rules}")
