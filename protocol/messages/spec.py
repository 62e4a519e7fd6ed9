"""Kafka's JSON message specs as josefk's generator reads them: the model of one message (its
structs and their fields, with version ranges) and the loader of one spec file."""

from __future__ import annotations

import json
import keyword
import re
from dataclasses import dataclass, field
from pathlib import Path

TOP = 0x7FFF  # "N+" versions run to the highest a short can name

# Fixed-width types: struct format character, and byte size.
FIXED = {
    "bool": ("?", 1),
    "int8": ("b", 1),
    "int16": ("h", 2),
    "uint16": ("H", 2),
    "int32": ("i", 4),
    "uint32": ("I", 4),
    "int64": ("q", 8),
    "float64": ("d", 8),
}


# Reading the specs.


def strip_comments(text: str) -> str:
    """Drop // comments outside strings (the specs are JSON with comments)."""
    out: list[str] = []
    i, n, in_string = 0, len(text), False
    while i < n:
        c = text[i]
        if in_string:
            out.append(c)
            if c == "\\":
                out.append(text[i + 1])
                i += 1
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
            out.append(c)
        elif text.startswith("//", i):
            while i < n and text[i] != "\n":
                i += 1
            continue
        else:
            out.append(c)
        i += 1
    return "".join(out)


def parse_versions(text: str | None) -> tuple[int, int] | None:
    """'3+', '1-4', '5' or 'none' -> inclusive (low, high), None for none."""
    if text is None or text.strip() == "none":
        return None
    text = text.strip()
    if text.endswith("+"):
        return int(text[:-1]), TOP
    if "-" in text:
        low, high = text.split("-")
        return int(low), int(high)
    return int(text), int(text)


def in_range(version: int, versions: tuple[int, int] | None) -> bool:
    return versions is not None and versions[0] <= version <= versions[1]


def snake(name: str) -> str:
    """kafka-python's field names (ThrottleTimeMs -> throttle_time_ms), so code that reads its
    messages reads these the same way."""
    name = re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()
    return name + "_" if keyword.iskeyword(name) else name


def camel(name: str) -> str:
    """Kafka's camelCaseName (PartitionData -> partitionData), as its errors name a field."""
    return name[:1].lower() + name[1:]


@dataclass
class Field:
    name: str  # Kafka's, as in the spec
    attr: str  # the Python attribute
    type: str  # "int32", "string", "[]int32", "[]TopicData", "TopicData"
    versions: tuple[int, int] | None
    nullable: tuple[int, int] | None
    tag: int | None
    tagged: tuple[int, int] | None
    flexible: tuple[int, int] | None  # a field-level override (RequestHeader's ClientId)
    ignorable: bool
    default: object
    about: str
    entity: str  # Kafka's entityType (topicName, brokerId, ...): documentation only

    @property
    def is_array(self) -> bool:
        return self.type.startswith("[]")

    @property
    def element(self) -> str:
        return self.type[2:] if self.is_array else self.type

    @property
    def is_struct(self) -> bool:
        return self.element not in FIXED and self.element not in ("string", "bytes", "records", "uuid")

    def present(self, version: int) -> bool:
        return in_range(version, self.versions)

    def tagged_in(self, version: int) -> bool:
        return self.tag is not None and in_range(version, self.tagged)


@dataclass
class StructSpec:
    name: str
    fields: list[Field]  # in wire order
    about: str = ""
    declared: list[str] | None = None  # the dataclass's field order, where not the wire's (merge.py)

    def in_declared_order(self) -> list[Field]:
        if self.declared is None:
            return self.fields
        by_name = {f.name: f for f in self.fields}
        return [by_name[name] for name in self.declared]


@dataclass
class MessageSpec:
    name: str
    kind: str  # request, response, header
    api_key: int | None
    valid: tuple[int, int]
    flexible: tuple[int, int] | None
    structs: dict[str, StructSpec] = field(default_factory=dict)  # nested, in definition order
    sources: tuple[str, ...] = ()  # the Kafka releases whose specs it is (merge.py)
    listeners: tuple[str, ...] = ()  # a request's: which of Kafka's listeners serve it
    unstable_from: int | None = None  # latestVersionUnstable: the newest version, not advertised

    @property
    def root(self) -> StructSpec:
        return self.structs[self.name]


def load(path: Path, release: str = "") -> MessageSpec:
    """One spec file of a Kafka release (its version, for the generated modules' docstrings)."""
    raw = json.loads(strip_comments(path.read_text()))
    valid = parse_versions(raw["validVersions"])
    assert valid is not None, path
    spec = MessageSpec(raw["name"], raw["type"], raw.get("apiKey"), valid, parse_versions(raw.get("flexibleVersions")))
    spec.sources = (release,) if release else ()
    spec.listeners = tuple(raw.get("listeners", ()))
    spec.unstable_from = valid[1] if raw.get("latestVersionUnstable") else None
    common = {s["name"]: s for s in raw.get("commonStructs", [])}

    def struct(name: str, fields: list[dict[str, object]], about: str = "") -> None:
        assert name not in spec.structs, f"{path.name}: struct {name} defined twice"
        spec.structs[name] = StructSpec(name, [], about)  # reserve the slot: parents come first
        spec.structs[name].fields = [parse_field(f) for f in fields]

    def parse_field(f: dict[str, object]) -> Field:
        type_ = str(f["type"])
        element = type_[2:] if type_.startswith("[]") else type_
        if "fields" in f:
            struct(element, f["fields"], str(f.get("about", "")))  # type: ignore[arg-type]
        elif element in common and element not in spec.structs:
            struct(element, common[element]["fields"], str(common[element].get("about", "")))
        tagged = parse_versions(f.get("taggedVersions"))  # type: ignore[arg-type]
        return Field(
            name=str(f["name"]),
            attr=snake(str(f["name"])),
            type=type_,
            versions=parse_versions(f.get("versions")),  # type: ignore[arg-type]
            nullable=parse_versions(f.get("nullableVersions")),  # type: ignore[arg-type]
            tag=int(f["tag"]) if "tag" in f else None,  # type: ignore[call-overload]
            tagged=tagged,
            flexible=parse_versions(f["flexibleVersions"]) if "flexibleVersions" in f else spec.flexible,  # type: ignore[arg-type]
            ignorable=bool(f.get("ignorable", False)),
            default=f.get("default"),
            about=str(f.get("about", "")),
            entity=str(f.get("entityType", "")),
        )

    struct(spec.name, raw["fields"])
    return spec
