"""Generates josefk's message classes from Kafka's JSON message specs, as Kafka's own
MessageGenerator does for the Java clients.

    python -m josefk.protocol.messages.generator                 # rewrite protocol/messages/generated/
    python -m josefk.protocol.messages.generator --check         # exit 1 if the committed output differs
    python -m josefk.protocol.messages.generator --import-specs kafka-clients-X.jar   # specs/X/

The specs of each Kafka release josefk speaks are vendored whole in protocol/messages/specs/<version>/
(Apache 2.0: license headers, NOTICE and the jar's VERSION kept), so regeneration and its check
need no network; `make message-specs` fetches the pinned jars from Maven Central and imports them.
The releases' specs of one message are merged into one (merge.py: every version either defines).
For each request, response and header it writes one module: a slots dataclass per message and per
nested struct, and straight-line encode and decode functions per (struct, version) - the versions
that encode identically share one function. Nothing interprets a schema at run time.
"""

from __future__ import annotations

import json
import re
import sys
import zipfile
from functools import reduce
from pathlib import Path

from josefk.protocol.messages import codec
from josefk.protocol.messages.merge import merge
from josefk.protocol.messages.spec import (
    FIXED,
    TOP,
    Field,
    MessageSpec,
    StructSpec,
    camel,
    in_range,
    load,
    parse_versions,
    snake,
    strip_comments,
)

__all__ = ["Field", "MessageSpec", "StructSpec", "generate", "in_range", "load", "main"]

HERE = Path(__file__).resolve().parent
SPECS = HERE / "specs"
OUT = HERE / "generated"
PY_TYPE = {"bool": "bool", "float64": "float", "string": "str", "bytes": "bytes", "uuid": "UUID"}
PY_TYPE.update({t: "int" for t in FIXED if t.startswith(("int", "uint"))})


def release_dirs() -> list[Path]:
    """specs/<version>/ of each vendored release, oldest first."""
    dirs = [p for p in SPECS.iterdir() if (p / "VERSION").is_file()]
    return sorted(dirs, key=lambda p: tuple(int(n) for n in p.name.split(".")))


SPEC_VERSIONS = tuple((p / "VERSION").read_text().strip() for p in release_dirs())


# Python for one field: its annotation and default.


def annotation(f: Field) -> str:
    if f.is_array:
        inner = f.element if f.is_struct else element_type(f.element)
        text = f"list[{inner}]"
    elif f.is_struct:
        text = f.element
    else:
        text = element_type(f.type)
    return f"{text} | None" if f.nullable is not None else text


def element_type(t: str) -> str:
    return "bytes | memoryview" if t == "records" else PY_TYPE[t]


def default_value(f: Field) -> str:
    """The default as a Python expression (a fresh object for lists and structs)."""
    d = f.default
    if d == "null":
        assert f.nullable is not None, f"{f.name}: null default on a non-nullable field"
        return "None"
    if f.is_array:
        assert d in (None, ""), f"{f.name}: array default {d!r}"
        return "[]"
    if f.is_struct:
        return f"{f.element}()"
    t = f.type
    if t == "bool":
        return "True" if str(d).lower() == "true" else "False"
    if t in FIXED and t != "float64":
        if d in (None, ""):
            return "0"
        text = str(d)
        return str(int(text, 16) if text.lower().startswith(("0x", "-0x")) else int(text))
    if t == "float64":
        return repr(float(str(d))) if d not in (None, "") else "0.0"
    if t == "string":
        return repr(str(d) if d is not None else "")
    if t in ("bytes", "records"):
        assert d in (None, ""), f"{f.name}: bytes default {d!r}"
        return 'b""'
    if t == "uuid":
        assert d in (None, ""), f"{f.name}: uuid default {d!r}"
        return "ZERO_UUID"
    raise AssertionError(f"{f.name}: type {t}")


def dataclass_default(f: Field) -> str:
    d = default_value(f)
    if d == "[]":
        return "field(default_factory=list)"
    if f.is_struct and not f.is_array and d != "None":
        return f"field(default_factory={f.element})"
    return d


def not_default(f: Field, expr: str) -> str:
    """A Python condition: expr is not at the field's default. Structs compare with a module-level
    default instance (_DEFAULT_<Struct>), not a new one per call."""
    d = default_value(f)
    if d == "None":
        return f"{expr} is not None"
    if d == "[]":
        return f"({expr} is None or len({expr}) > 0)" if f.nullable is not None else f"len({expr}) > 0"
    if f.type == "bool":
        return f"not {expr}" if d == "True" else expr
    if f.is_struct:
        return f"{expr} != _DEFAULT_{f.element}"
    return f"{expr} != {d}"


# Code emission.


class Module:
    """One generated module: its lines, the Struct constants and the deduplicated functions."""

    def __init__(self, spec: MessageSpec) -> None:
        self.spec = spec
        self.structs_fmt: dict[str, str] = {}  # format -> constant name
        self.functions: list[str] = []
        self.bodies: dict[str, str] = {}  # body with the function name blanked -> canonical name
        self.encoders: dict[tuple[str, int], str] = {}  # (struct, version) -> function name
        self.decoders: dict[tuple[str, int], str] = {}

    def fmt(self, chars: str) -> str:
        fmt = ">" + chars
        if fmt not in self.structs_fmt:
            self.structs_fmt[fmt] = f"_S{len(self.structs_fmt)}"
        return self.structs_fmt[fmt]

    def add_function(self, base: str, version: int, lines: list[str]) -> str:
        """Adds a function unless an identical one exists; returns the name to call."""
        body = "\n".join(lines)
        if body in self.bodies:
            return self.bodies[body]
        name = f"{base}_v{version}"
        self.bodies[body] = name
        self.functions.append(body.replace("@NAME@", name))
        return name

    # decode

    def decode_struct(self, s: StructSpec, version: int) -> str:
        key = (s.name, version)
        if key in self.decoders:
            return self.decoders[key]
        flexible = in_range(version, self.spec.flexible)
        lines = [f"def @NAME@(buf: memoryview, pos: int) -> tuple[{s.name}, int]:"]
        body: list[str] = []
        regular = [f for f in s.fields if f.present(version) and not f.tagged_in(version)]
        tagged = [f for f in s.fields if f.tagged_in(version)]
        body += [f"f_{f.attr}: {annotation(f)}" for f in regular if f.type not in FIXED]
        i = 0
        while i < len(regular):
            run = []
            while i < len(regular) and regular[i].type in FIXED:
                run.append(regular[i])
                i += 1
            if run:
                const = self.fmt("".join(FIXED[f.type][0] for f in run))
                size = sum(FIXED[f.type][1] for f in run)
                names = ", ".join(f"f_{f.attr}" for f in run)
                body.append(f"{names}{',' if len(run) == 1 else ''} = {const}.unpack_from(buf, pos)")
                body.append(f"pos += {size}")
                continue
            f = regular[i]
            i += 1
            nullable = in_range(version, f.nullable)
            body += self.decode_value(f, f"f_{f.attr}", version, self.compact(f, version), nullable)
        if flexible:
            body += self.decode_tags(s, tagged, version)
        args = []
        for f in s.in_declared_order():
            args.append(f"f_{f.attr}" if f.present(version) or f.tagged_in(version) else default_value(f))
        if self.spec.flexible is not None:
            args.append("_unknown" if flexible else "[]")
        body.append(f"return {s.name}({', '.join(args)}), pos")
        lines += ["    " + b for b in body]
        name = self.add_function(f"_decode_{snake(s.name)}", version, lines)
        self.decoders[key] = name
        return name

    def compact(self, f: Field, version: int) -> bool:
        return in_range(version, self.spec.flexible) and in_range(version, f.flexible)

    def decode_tags(self, s: StructSpec, tagged: list[Field], version: int) -> list[str]:
        lines = []
        for f in tagged:
            lines.append(f"f_{f.attr}: {annotation(f)} = {default_value(f)}")
        if not tagged:
            return [
                "if buf[pos] == 0:",
                "    _unknown: list[tuple[int, bytes]] = []",
                "    pos += 1",
                "else:",
                "    _unknown, pos = read_unknown_tags(buf, pos)",
            ]
        lines.append("_unknown: list[tuple[int, bytes]] = []")
        lines.append("if buf[pos] == 0:")
        lines.append("    pos += 1")
        lines.append("else:")
        lines.append("    _ntags, pos = read_uvarint(buf, pos)")
        lines.append("    for _ in range(_ntags):")
        lines.append("        _tag, pos = read_uvarint(buf, pos)")
        lines.append("        _size, pos = read_uvarint(buf, pos)")
        keyword_ = "if"
        for f in sorted(tagged, key=lambda f: f.tag or 0):
            lines.append(f"        {keyword_} _tag == {f.tag}:")
            value = self.decode_value(f, f"f_{f.attr}", version, True, in_range(version, f.nullable))
            lines += ["            " + v for v in value]
            keyword_ = "elif"
        lines.append("        else:")
        lines.append("            _raw, pos = read_unknown_tag(buf, pos, _size)")
        lines.append("            _unknown.append((_tag, _raw))")
        return lines

    def decode_value(self, f: Field, target: str, version: int, compact: bool, nullable: bool) -> list[str]:
        if f.is_array:
            return self.decode_array(f, target, version, compact, nullable)
        if f.is_struct:
            fn = self.decode_struct(self.spec.structs[f.element], version)
            if nullable:
                return [
                    "if buf[pos] >= 0x80:",  # a signed int8 marker: -1 null, 1 present
                    f"    {target} = None",
                    "    pos += 1",
                    "else:",
                    f"    {target}, pos = {fn}(buf, pos + 1)",
                ]
            return [f"{target}, pos = {fn}(buf, pos)"]
        return self.decode_scalar(f.type, target, compact, nullable, camel(f.name))

    def decode_scalar(self, t: str, target: str, compact: bool, nullable: bool, name: str) -> list[str]:
        """Read one value; `name` is what a null in a non-nullable field is reported as."""
        if t in FIXED:
            const = self.fmt(FIXED[t][0])
            return [f"{target}, = {const}.unpack_from(buf, pos)", f"pos += {FIXED[t][1]}"]
        if t == "uuid":
            return [f"{target}, pos = read_uuid(buf, pos)"]
        kind = {"string": "string", "bytes": "bytes", "records": "records"}[t]
        reader = f"read_{'compact_' if compact else ''}{'nullable_' if nullable else ''}{kind}"
        if nullable:
            return [f"{target}, pos = {reader}(buf, pos)"]
        return [f'{target}, pos = {reader}(buf, pos, "{name}")']

    def decode_array(self, f: Field, target: str, version: int, compact: bool, nullable: bool) -> list[str]:
        reader = "read_compact_array_length" if compact else "read_array_length"
        n = f"n_{f.attr}"
        lines = [f"{n}, pos = {reader}(buf, pos)", f"if {n} < 0:"]
        if nullable:
            lines.append(f"    {target} = None")
        else:
            lines.append(f'    raise null_field("{camel(f.name)}")')
        lines.append("else:")
        e = f.element
        if e in FIXED:
            code, size = FIXED[e]
            lines.append(f'    {target} = list(unpack_from(f">{{{n}}}{code}", buf, pos))')
            lines.append(f"    pos += {size} * {n}")
            return lines
        item = f"e_{f.attr}"
        lines.append(f"    {target} = []")
        lines.append(f"    for _ in range({n}):")
        if f.is_struct:
            fn = self.decode_struct(self.spec.structs[e], version)
            lines.append(f"        {item}, pos = {fn}(buf, pos)")
        else:
            lines += ["        " + x for x in self.decode_scalar(e, item, compact, False, f"{camel(f.name)} element")]
        lines.append(f"        {target}.append({item})")
        return lines

    # encode

    def encode_struct(self, s: StructSpec, version: int) -> str:
        key = (s.name, version)
        if key in self.encoders:
            return self.encoders[key]
        flexible = in_range(version, self.spec.flexible)
        lines = [f"def @NAME@(m: {s.name}, out: bytearray) -> None:"]
        body: list[str] = []
        for f in s.fields:
            if not f.present(version) and not f.tagged_in(version) and not f.ignorable:
                body.append(f"if {not_default(f, 'm.' + f.attr)}:")
                body.append(f'    raise version_error("{s.name}", "{f.name}", {version})')
        regular = [f for f in s.fields if f.present(version) and not f.tagged_in(version)]
        i = 0
        while i < len(regular):
            run = []
            while i < len(regular) and regular[i].type in FIXED:
                run.append(regular[i])
                i += 1
            if run:
                const = self.fmt("".join(FIXED[f.type][0] for f in run))
                body.append(f"out += {const}.pack({', '.join('m.' + f.attr for f in run)})")
                continue
            f = regular[i]
            i += 1
            body += self.encode_value(s, f, f"m.{f.attr}", version, self.compact(f, version))
        if flexible:
            body += self.encode_tags(s, version)
        lines += ["    " + b for b in body or ["return"]]
        name = self.add_function(f"_encode_{snake(s.name)}", version, lines)
        self.encoders[key] = name
        return name

    def encode_tags(self, s: StructSpec, version: int) -> list[str]:
        tagged = sorted((f for f in s.fields if f.tagged_in(version)), key=lambda f: f.tag or 0)
        if not tagged:
            return [
                "if m.unknown_tagged_fields:",
                "    write_tagged_fields(out, m.unknown_tagged_fields)",
                "else:",
                "    out.append(0)",
            ]
        lines = ["_tags: list[tuple[int, bytes | bytearray]] = [*m.unknown_tagged_fields]"]
        for f in tagged:
            lines.append(f"if {not_default(f, 'm.' + f.attr)}:")
            lines.append("    _t = bytearray()")
            value = self.encode_value(s, f, f"m.{f.attr}", version, True, out="_t")
            lines += ["    " + v for v in value]
            lines.append(f"    _tags.append(({f.tag}, _t))")
        lines.append("write_tagged_fields(out, _tags)")
        return lines

    def encode_value(
        self, s: StructSpec, f: Field, expr: str, version: int, compact: bool, out: str = "out"
    ) -> list[str]:
        nullable = in_range(version, f.nullable)
        lines: list[str] = []
        if f.nullable is not None and not nullable:
            lines += [f"if {expr} is None:", f'    raise null_error("{s.name}", "{f.name}", {version})']
        if f.is_array:
            return lines + self.encode_array(f, expr, version, compact, nullable, out)
        if f.is_struct:
            fn = self.encode_struct(self.spec.structs[f.element], version)
            if nullable:
                return lines + [
                    f"if {expr} is None:",
                    f"    {out}.append(0xFF)",
                    "else:",
                    f"    {out}.append(1)",
                    f"    {fn}({expr}, {out})",
                ]
            return lines + [f"{fn}({expr}, {out})"]
        return lines + self.encode_scalar(f.type, expr, compact, nullable, out)

    def encode_scalar(self, t: str, expr: str, compact: bool, nullable: bool, out: str) -> list[str]:
        if t in FIXED:
            return [f"{out} += {self.fmt(FIXED[t][0])}.pack({expr})"]
        if t == "uuid":
            return [f"{out} += {expr}.bytes"]
        kind = "string" if t == "string" else "bytes"
        writer = f"write_{'compact_' if compact else ''}{'nullable_' if nullable else ''}{kind}"
        return [f"{writer}({out}, {expr})"]

    def encode_array(self, f: Field, expr: str, version: int, compact: bool, nullable: bool, out: str) -> list[str]:
        lines: list[str] = []
        indent = ""
        if nullable:
            null = ".append(0)" if compact else ' += b"\\xff\\xff\\xff\\xff"'
            lines += [f"if {expr} is None:", f"    {out}{null}"]
            lines.append("else:")
            indent = "    "
        if compact:
            lines.append(f"{indent}write_uvarint({out}, len({expr}) + 1)")
        else:
            lines.append(f"{indent}{out} += pack_int32(len({expr}))")
        e = f.element
        if e in FIXED:
            lines.append(f'{indent}{out} += pack(f">{{len({expr})}}{FIXED[e][0]}", *{expr})')
            return lines
        item = f"e_{f.attr}"
        lines.append(f"{indent}for {item} in {expr}:")
        if f.is_struct:
            fn = self.encode_struct(self.spec.structs[e], version)
            lines.append(f"{indent}    {fn}({item}, {out})")
        else:
            lines += [f"{indent}    " + x for x in self.encode_scalar(e, item, compact, False, out)]
        return lines

    # the module

    def dependency_order(self) -> list[StructSpec]:
        """Structs, each after every struct its fields hold (a common struct may be used by
        several, in any order of definition)."""
        done: dict[str, StructSpec] = {}

        def visit(s: StructSpec) -> None:
            if s.name in done:
                return
            for f in s.fields:
                if f.is_struct:
                    visit(self.spec.structs[f.element])
            done[s.name] = s

        visit(self.spec.root)
        return list(done.values())

    def classes(self) -> list[str]:
        spec = self.spec
        flexible_any = spec.flexible is not None
        out: list[str] = []
        # A struct after those its fields hold: dataclass default factories name the classes.
        for s in self.dependency_order():
            is_root = s.name == spec.name
            out.append("")
            out.append("")
            out.append("@dataclass(slots=True)")
            out.append(f"class {s.name}{'(ApiMessage)' if is_root else ''}:")
            doc = f"{spec.name} {spec.kind}" if is_root else (s.about or f"A {s.name} in {spec.name}.")
            out.append(f'    """{escape_doc(doc)}"""')
            out.append("")
            if is_root:
                if spec.api_key is not None:
                    out.append(f"    API_KEY: ClassVar[int] = {spec.api_key}")
                out.append(f'    NAME: ClassVar[str] = "{spec.name}"')
                out.append(f"    MIN_VERSION: ClassVar[int] = {spec.valid[0]}")
                out.append(f"    MAX_VERSION: ClassVar[int] = {spec.valid[1]}")
                out.append(f"    FLEXIBLE_MIN: ClassVar[int | None] = {spec.flexible[0] if spec.flexible else None}")
                out.append("")
            for f in s.in_declared_order():
                out.append(f"    {f.attr}: {annotation(f)} = {dataclass_default(f)}")
                out.append(f"    # {field_doc(f)}".rstrip())
            if flexible_any:
                out.append("    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)")
            if is_root:
                out += [
                    "",
                    "    def encode_into(self, out: bytearray, version: int) -> None:",
                    "        try:",
                    "            encoder = _ENCODERS[version]",
                    "        except KeyError:",
                    f'            raise UnsupportedVersionError(f"{spec.name} has no version {{version}}") from None',
                    "        encoder(self, out)",
                    "",
                    "    @classmethod",
                    f"    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[{s.name}, int]:",
                    "        try:",
                    "            decoder = _DECODERS[version]",
                    "        except KeyError:",
                    f'            raise UnsupportedVersionError(f"{spec.name} has no version {{version}}") from None',
                    "        try:",
                    "            return decoder(buf, pos)",
                    "        except TRUNCATED as e:",
                    f'            raise MessageDecodeError(f"{spec.name} v{{version}}: truncated ({{e}})") from None',
                    "",
                    "    @classmethod",
                    f"    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> {s.name}:",
                    "        return cls.decode_from(memoryview(buf), 0, version)[0]",
                ]
        return out

    def render(self) -> str:
        spec = self.spec
        versions = range(spec.valid[0], spec.valid[1] + 1)
        decoders = [self.decode_struct(spec.root, v) for v in versions]
        encoders = [self.encode_struct(spec.root, v) for v in versions]
        classes = self.classes()
        all_lines = "\n".join(classes + self.functions).split("\n")
        code = "\n".join(line for line in all_lines if not line.strip().startswith(("#", '"""')))
        used = set(re.findall(r"(?<![.\w])\w+", code)) | ({"Struct"} if self.structs_fmt else set())
        codec = sorted(used & CODEC_NAMES, key=lambda n: (not n.isupper(), not n[0].isupper(), n))
        from_struct = sorted({"Struct", "pack", "unpack_from"} & used)
        lines = [
            f'"""{spec.name}: generated from Kafka {" and ".join(spec.sources)}\'s {spec.name}.json by',
            'josefk.protocol.messages.generator. Do not edit; regenerate."""',
            "",
            "from __future__ import annotations",
            "",
            "from collections.abc import Callable",
            "from dataclasses " + ("import dataclass, field" if "field" in used else "import dataclass"),
        ]
        if from_struct:
            lines.append(f"from struct import {', '.join(from_struct)}")
        lines.append("from typing import ClassVar")
        if "UUID" in used:
            lines.append("from uuid import UUID")
        lines += ["", "from josefk.protocol.messages.codec import ("]
        lines += [f"    {name}," for name in codec]
        lines.append(")")
        lines += ["", "__all__ = [" + ", ".join(f'"{s}"' for s in spec.structs) + "]", ""]
        for fmt, const in self.structs_fmt.items():
            lines.append(f'{const} = Struct("{fmt}")')
        lines += classes
        defaults = sorted(set(re.findall(r"\b_DEFAULT_(\w+)", "\n".join(self.functions))))
        if defaults:
            lines += ["", "", "# What tagged and version-gated struct fields are compared with; never handed out."]
            lines += [f"_DEFAULT_{name} = {name}()" for name in defaults]
        for fn in self.functions:
            lines += ["", "", fn]
        root = spec.name
        lines += [
            "",
            "",
            f"_DECODERS: dict[int, Callable[[memoryview, int], tuple[{root}, int]]] = {{",
        ]
        lines += [f"    {v}: {d}," for v, d in zip(versions, decoders, strict=True)]
        lines += ["}", f"_ENCODERS: dict[int, Callable[[{root}, bytearray], None]] = {{"]
        lines += [f"    {v}: {e}," for v, e in zip(versions, encoders, strict=True)]
        lines += ["}", ""]
        return "\n".join(lines)


CODEC_NAMES = {name for name in dir(codec) if not name.startswith("_")} - {"Iterable", "ClassVar", "Struct", "UUID"}


def escape_doc(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"""', "'''")


def field_doc(f: Field) -> str:
    parts = [f"versions {fmt_versions(f.versions)}"]
    if f.nullable is not None:
        parts.append(f"nullable {fmt_versions(f.nullable)}")
    if f.tag is not None:
        parts.append(f"tag {f.tag} in {fmt_versions(f.tagged)}")
    if f.ignorable:
        parts.append("ignorable")
    if f.entity:
        parts.append(f"entity {f.entity}")
    return "; ".join(parts) + (f". {f.about}" if f.about else "")


def fmt_versions(v: tuple[int, int] | None) -> str:
    if v is None:
        return "none"
    if v[1] == TOP:
        return f"{v[0]}+"
    return str(v[0]) if v[0] == v[1] else f"{v[0]}-{v[1]}"


def module_name(spec_name: str) -> str:
    return snake(spec_name)


def render_registry(specs: list[MessageSpec], releases: dict[str, list[MessageSpec]]) -> str:
    """The index from API key to request and response module, imported lazily, and each release's
    ApiVersions ranges."""
    requests = sorted((s.api_key, module_name(s.name), s.name) for s in specs if s.kind == "request")
    responses = sorted((s.api_key, module_name(s.name), s.name) for s in specs if s.kind == "response")
    lines = [
        f'"""API key -> generated request and response modules (Kafka {" and ".join(releases)}). Generated by',
        'josefk.protocol.messages.generator. Do not edit; regenerate."""',
        "",
        "from __future__ import annotations",
        "",
        "from enum import IntEnum",
        "",
        "",
        "class ApiKey(IntEnum):",
        '    """Kafka\'s API keys, named as the specs name the requests (kafka-python\'s ApiKey names)."""',
        "",
    ]
    lines += [f"    {n.removesuffix('Request')} = {k}" for k, _, n in requests]
    lines += [
        "",
        "",
        "# api key -> (module, class) under josefk.protocol.messages.generated",
        "REQUESTS: dict[int, tuple[str, str]] = {",
    ]
    lines += [f'    {k}: ("{m}", "{n}"),' for k, m, n in requests]
    lines += ["}", "RESPONSES: dict[int, tuple[str, str]] = {"]
    lines += [f'    {k}: ("{m}", "{n}"),' for k, m, n in responses]
    lines += [
        "}",
        "# release -> api key -> (min, max): the versions a broker of that release advertises in",
        "# ApiVersions (its broker-listener APIs, without a latestVersionUnstable newest version)",
        "BROKER_VERSIONS: dict[str, dict[int, tuple[int, int]]] = {",
    ]
    for release, release_specs in releases.items():
        lines.append(f'    "{release}": {{')
        lines += [f"        {k}: ({low}, {high})," for k, (low, high) in broker_versions(release_specs).items()]
        lines.append("    },")
    lines += ["}", ""]
    return "\n".join(lines)


def broker_versions(specs: list[MessageSpec]) -> dict[int, tuple[int, int]]:
    """Kafka's ApiVersionsResponse of a broker: the requests a broker listener (KRaft or
    ZooKeeper) serves, each without its unstable newest version; none left, not advertised."""
    out: dict[int, tuple[int, int]] = {}
    for s in sorted(specs, key=lambda s: s.api_key or 0):
        if s.kind != "request" or not {"broker", "zkBroker"} & set(s.listeners):
            continue
        assert s.api_key is not None
        high = s.valid[1] - 1 if s.unstable_from is not None else s.valid[1]
        if high >= s.valid[0]:
            out[s.api_key] = (s.valid[0], high)
    return out


def spec_paths(folder: Path) -> list[Path]:
    """The specs of messages with versions (Kafka 4 keeps its removed APIs as validVersions none)."""
    paths = sorted(folder.glob("*.json"))
    return [p for p in paths if parse_versions(json.loads(strip_comments(p.read_text()))["validVersions"])]


def release_specs(dirs: list[Path]) -> dict[str, list[MessageSpec]]:
    """Kafka version -> that release's specs, for each of the release folders, oldest first."""
    out: dict[str, list[MessageSpec]] = {}
    for folder in dirs:
        release = (folder / "VERSION").read_text().strip()
        out[release] = [load(p, release) for p in spec_paths(folder)]
    return out


def merged_specs(releases: dict[str, list[MessageSpec]]) -> list[MessageSpec]:
    """One spec per message, of every version any of the releases defines (merge.py)."""
    by_key: dict[tuple[str, int | str], list[MessageSpec]] = {}
    for specs in releases.values():
        unstable = {s.api_key: s.unstable_from for s in specs if s.kind == "request"}
        for s in specs:
            if s.kind == "response":  # the request's spec says it for both
                s.unstable_from = unstable.get(s.api_key)
            by_key.setdefault((s.kind, s.name if s.api_key is None else s.api_key), []).append(s)
    return sorted((reduce(merge, same) for same in by_key.values()), key=lambda s: s.name)


def generate(dirs: list[Path] | None = None) -> dict[str, str]:
    """File name -> content of everything under generated/ (from the given release folders:
    by default every vendored one)."""
    releases = release_specs(release_dirs() if dirs is None else dirs)
    specs = merged_specs(releases)
    files = {f"{module_name(s.name)}.py": Module(s).render() for s in specs}
    files["registry.py"] = render_registry(specs, releases)
    files["__init__.py"] = '"""Generated message classes; see josefk.protocol.messages.generator."""\n'
    return files


def import_specs(jar: Path) -> Path:
    """specs/<version>/ from a kafka-clients jar: its request, response and header specs, its NOTICE
    and its version (the data specs - records, consumer protocol - are not messages on the wire).
    Replaces that release's folder; the other releases' stay."""
    with zipfile.ZipFile(jar) as z:
        properties = z.read("kafka/kafka-version.properties").decode()
        version = re.search(r"^version=(.+)$", properties, re.M).group(1).strip()  # type: ignore[union-attr]
        folder = SPECS / version
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.glob("*.json"):
            old.unlink()
        for name in z.namelist():
            if name.startswith("common/message/") and name.endswith(".json"):
                text = z.read(name).decode()
                if json.loads(strip_comments(text))["type"] in ("request", "response", "header"):
                    (folder / Path(name).name).write_text(text)
        (folder / "NOTICE").write_bytes(z.read("NOTICE"))
    (folder / "VERSION").write_text(version + "\n")
    return folder


def main(argv: list[str]) -> int:
    if argv[:1] == ["--import-specs"]:
        import_specs(Path(argv[1]))
        return 0
    files = generate()
    if "--check" in argv:
        stale = sorted(
            name for name, text in files.items() if not (OUT / name).exists() or (OUT / name).read_text() != text
        )
        extra = sorted(p.name for p in OUT.glob("*.py") if p.name not in files)
        if stale or extra:
            print(f"generated/ is not what the specs give: differ {stale}, extra {extra}", file=sys.stderr)
            return 1
        return 0
    OUT.mkdir(exist_ok=True)
    for p in OUT.glob("*.py"):
        if p.name not in files:
            p.unlink()
    for name, text in files.items():
        (OUT / name).write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
