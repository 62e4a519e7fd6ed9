"""sasl.jaas.config values, as Kafka's JaasConfig parses them:
`LoginModuleClass flag key=value key="quoted value" ...;` (one login module)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

PLAIN_LOGIN_MODULE = "org.apache.kafka.common.security.plain.PlainLoginModule"
SCRAM_LOGIN_MODULE = "org.apache.kafka.common.security.scram.ScramLoginModule"
_FLAGS = ("required", "requisite", "sufficient", "optional")
_TOKEN = re.compile(r'\s*(?:"((?:[^"\\]|\\.)*)"|([^\s=;"]+)|(=)|(;))')


class JaasConfigError(ValueError):
    pass


@dataclass(frozen=True)
class JaasEntry:
    login_module: str
    flag: str
    options: dict[str, str] = field(default_factory=dict)


def _tokens(text: str) -> list[tuple[str, str]]:
    """(kind, value) with kind "word", "quoted", "=" or ";"."""
    out: list[tuple[str, str]] = []
    pos = 0
    text = text.strip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            raise JaasConfigError(f"unexpected character at {text[pos:pos + 20]!r}")
        quoted, word, eq, semi = m.groups()
        if quoted is not None:
            out.append(("quoted", re.sub(r"\\(.)", r"\1", quoted)))
        elif word is not None:
            out.append(("word", word))
        else:
            out.append((eq or semi, eq or semi))
        pos = m.end()
        while pos < len(text) and text[pos].isspace():
            pos += 1
    return out


def parse_jaas_config(text: str) -> JaasEntry:
    """The one login module of a sasl.jaas.config value; JaasConfigError says what is wrong."""
    tokens = _tokens(text)
    if len(tokens) < 3 or tokens[0][0] != "word" or tokens[1][0] != "word":
        raise JaasConfigError("expected 'LoginModule flag key=value ... ;'")
    module, flag = tokens[0][1], tokens[1][1]
    if flag.lower() not in _FLAGS:
        raise JaasConfigError(f"invalid control flag {flag!r}")
    options: dict[str, str] = {}
    i = 2
    while i < len(tokens) and tokens[i][0] != ";":
        if i + 2 >= len(tokens) or tokens[i][0] != "word" or tokens[i + 1][0] != "=" or tokens[i + 2][0] not in (
                "word", "quoted"):
            raise JaasConfigError(f"expected key=value near {tokens[i][1]!r}")
        options[tokens[i][1]] = tokens[i + 2][1]
        i += 3
    if i >= len(tokens):
        raise JaasConfigError("the login module must end with ';'")
    if i != len(tokens) - 1:
        raise JaasConfigError("sasl.jaas.config must have exactly one login module")
    return JaasEntry(module, flag.lower(), options)
