"""One message spec out of two Kafka releases' specs of the same message, so that one generated
class speaks every version either release defines: Kafka 4 dropped the oldest versions of many
APIs (KIP-896) that josefk still serves to 0.8-era clients, and added versions josefk grows into.

Versions are the union; fields are the union by name, recursively into structs, each field's
versions (and nullable, tagged and flexible versions) the union of what each release says for the
versions that release defines. Where the two disagree about a version both define - a field's
type, position, tag, nullability, encoding or default - the merge raises SpecConflict naming the
message, struct and field: such a version would encode two ways, and the generator must not pick.

Two exceptions, both rules rather than guesses: a field the newer release renamed without changing
its wire form (RENAMED, checked like any other field) takes the new name; and a version the older
release marks latestVersionUnstable (never advertised, free to change: 3.9's early-access KIP-932
share-group RPCs) is taken from the newer release where that defines it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from josefk.protocol.messages.spec import TOP, Field, MessageSpec, StructSpec, in_range

__all__ = ["SpecConflict", "merge"]


class SpecConflict(ValueError):
    """Two releases' specs that would encode a version both define differently."""


Versions = tuple[int, int] | None

# (message, struct, old name) -> new name: fields a newer release renamed, same wire form (the
# message and struct named as the newer release names them).
RENAMED = {
    # KIP-848 (Kafka 4.0): a consumer-protocol member commits with its member epoch.
    ("TxnOffsetCommitRequest", "TxnOffsetCommitRequest", "GenerationId"): "GenerationIdOrMemberEpoch",
    # KIP-996 (Kafka 4.0): Vote's candidate became the replica sending the request.
    ("VoteRequest", "PartitionData", "CandidateEpoch"): "ReplicaEpoch",
    ("VoteRequest", "PartitionData", "CandidateId"): "ReplicaId",
    ("VoteRequest", "PartitionData", "CandidateDirectoryId"): "ReplicaDirectoryId",
    # KIP-1142 (Kafka 4.1): client metrics resources became config resources.
    ("ListConfigResourcesResponse", "ListConfigResourcesResponse", "ClientMetricsResources"): "ConfigResources",
    ("ListConfigResourcesResponse", "ConfigResource", "Name"): "ResourceName",
}
# (message, old struct name) -> new struct name, with the message's new name.
STRUCTS_RENAMED = {
    ("ListConfigResourcesResponse", "ClientMetricsResource"): "ConfigResource",
}


# Messages a newer release renamed (the API key stays): old name -> new name.
MESSAGES_RENAMED = {
    # KIP-1142 (Kafka 4.1): ListClientMetricsResources lists config resources of any type from v1.
    "ListClientMetricsResourcesRequest": "ListConfigResourcesRequest",
    "ListClientMetricsResourcesResponse": "ListConfigResourcesResponse",
}


def merge(old: MessageSpec, new: MessageSpec) -> MessageSpec:
    """The spec of old's and new's versions together (new's texts where both say something)."""
    if (old.kind, old.api_key) != (new.kind, new.api_key):
        raise SpecConflict(f"{old.name}: kind/api key {old.kind}/{old.api_key} vs {new.kind}/{new.api_key}")
    if old.name != new.name and MESSAGES_RENAMED.get(old.name) != new.name:
        raise SpecConflict(f"API key {old.api_key}: {old.name} vs {new.name}, not a known rename")
    old = _renamed(old, new.name)
    where = old.name
    old_versions, new_versions = _span(old.valid), _span(new.valid)
    if old.unstable_from is not None and old.unstable_from in new_versions:
        old_versions.discard(old.unstable_from)
    valid = _to_range(old_versions | new_versions, top=False, where=f"{where} validVersions")
    assert valid is not None
    _agree(where, "flexibleVersions", old.flexible, new.flexible, old_versions & new_versions)
    flexible = _union(old.flexible, old_versions, new.flexible, new_versions, f"{where} flexibleVersions")
    merged = MessageSpec(old.name, old.kind, old.api_key, valid, flexible, sources=old.sources + new.sources)
    merged.listeners = new.listeners
    merged.unstable_from = new.unstable_from
    old_reach, new_reach = _reach(old, old_versions), _reach(new, new_versions)
    for name in _ordered(list(new.structs), list(old.structs)):
        if name in old.structs and name in new.structs:
            merged.structs[name] = _merge_struct(
                where, old.structs[name], old_versions, old_reach[name],
                new.structs[name], new_versions, new_reach[name],
            )
        elif name in old.structs:
            merged.structs[name] = _restrict_struct(old.structs[name], old_versions)
        else:
            merged.structs[name] = _restrict_struct(new.structs[name], new_versions)
    _prune(merged)
    for spec, versions in ((old, old_versions), (new, new_versions)):
        _check_shapes(merged, spec, versions)
    return merged


def _renamed(spec: MessageSpec, name: str) -> MessageSpec:
    """spec with the newer release's names: the message's (`name`), its structs' and fields'."""
    struct_names = {spec.name: name} | {old: new for (message, old), new in STRUCTS_RENAMED.items() if message == name}

    def field(struct: str, f: Field) -> Field:
        element = struct_names.get(f.element, f.element)
        return replace(
            f,
            name=RENAMED.get((name, struct, f.name), f.name),
            type=f"[]{element}" if f.is_array else element,
        )

    structs: dict[str, StructSpec] = {}
    for old_name, struct in spec.structs.items():
        struct_name = struct_names.get(old_name, old_name)
        structs[struct_name] = replace(struct, name=struct_name, fields=[field(struct_name, f) for f in struct.fields])
    return replace(spec, name=name, structs=structs)


def _prune(spec: MessageSpec) -> None:
    """Drops the structs no field holds any more (an older release's unstable version's)."""
    reachable: set[str] = set()

    def visit(name: str) -> None:
        if name not in reachable:
            reachable.add(name)
            for f in spec.structs[name].fields:
                if f.is_struct:
                    visit(f.element)

    visit(spec.name)
    spec.structs = {name: s for name, s in spec.structs.items() if name in reachable}


def _reach(spec: MessageSpec, versions: set[int]) -> dict[str, set[int]]:
    """Struct name -> the versions in which some field holds it."""
    reach: dict[str, set[int]] = {name: set() for name in spec.structs}

    def visit(struct: StructSpec, version: int) -> None:
        reach[struct.name].add(version)
        for f in struct.fields:
            if f.is_struct and (f.present(version) or f.tagged_in(version)):
                visit(spec.structs[f.element], version)

    for v in versions:
        visit(spec.root, v)
    return reach


def _merge_struct(
    where: str, old: StructSpec, old_versions: set[int], old_used: set[int],
    new: StructSpec, new_versions: set[int], new_used: set[int],
) -> StructSpec:
    old_fields = {f.name: f for f in old.fields}
    new_fields = {f.name: f for f in new.fields}
    fields: list[Field] = []
    for name in _ordered(list(new_fields), list(old_fields)):
        o, n = old_fields.get(name), new_fields.get(name)
        if o is not None and n is not None:
            path = f"{where}.{old.name}.{name}"
            fields.append(_merge_field(path, o, old_versions, old_used, n, new_versions, new_used))
            continue
        kept = _restrict_field(o, old_versions) if o is not None else _restrict_field(new_fields[name], new_versions)
        if kept is not None:
            fields.append(kept)
    # The older release's fields first, as its classes had them, so that positional construction
    # keeps working; the newer release's additions after them.
    names = {f.name for f in fields}
    declared = [f.name for f in old.in_declared_order() if f.name in names]
    declared += [f.name for f in fields if f.name not in declared]
    wire = [f.name for f in fields]
    return StructSpec(old.name, fields, new.about or old.about, declared if declared != wire else None)


def _merge_field(
    where: str, old: Field, old_versions: set[int], old_used: set[int],
    new: Field, new_versions: set[int], new_used: set[int],
) -> Field:
    for what in ("type", "default", "tag"):
        if getattr(old, what) != getattr(new, what):
            raise SpecConflict(f"{where}: {what} {getattr(old, what)!r} vs {getattr(new, what)!r}")
    both = old_versions & new_versions
    for what in ("versions", "nullable", "tagged", "flexible"):
        _agree(where, what, getattr(old, what), getattr(new, what), both)
    return replace(
        new,
        ignorable=_ignorable(where, old, old_used, new, new_used),
        versions=_union(old.versions, old_versions, new.versions, new_versions, f"{where} versions"),
        nullable=_union(old.nullable, old_versions, new.nullable, new_versions, f"{where} nullableVersions"),
        tagged=_union(old.tagged, old_versions, new.tagged, new_versions, f"{where} taggedVersions"),
        flexible=_union(old.flexible, old_versions, new.flexible, new_versions, f"{where} flexibleVersions"),
        about=new.about or old.about,
        entity=new.entity or old.entity,
    )


def _ignorable(where: str, old: Field, old_used: set[int], new: Field, new_used: set[int]) -> bool:
    """Whether a value a version cannot carry is dropped (else refused): it only matters in the
    versions that use the struct but lack the field, so it is the word of the release that has
    such versions (4.x made topic Names ignorable where topic ids replace them); if both have
    some, both must agree."""
    if old.ignorable == new.ignorable:
        return old.ignorable
    old_lacks = any(not (old.present(v) or old.tagged_in(v)) for v in old_used)
    new_lacks = any(not (new.present(v) or new.tagged_in(v)) for v in new_used)
    if old_lacks and new_lacks:
        raise SpecConflict(f"{where}: ignorable {old.ignorable} vs {new.ignorable}, and both have versions without it")
    return old.ignorable if old_lacks else new.ignorable


def _restrict_struct(struct: StructSpec, versions: set[int]) -> StructSpec:
    return replace(struct, fields=[f for f in (_restrict_field(f, versions) for f in struct.fields) if f is not None])


def _restrict_field(f: Field, versions: set[int]) -> Field | None:
    """A field of one release only, claiming only the versions that release defines (a 4.x spec's
    "0+" says nothing about the versions 4.x dropped); None if it has none of them left."""
    kept = replace(
        f,
        versions=_union(f.versions, versions, None, set(), f.name),
        nullable=_union(f.nullable, versions, None, set(), f.name),
        tagged=_union(f.tagged, versions, None, set(), f.name),
        flexible=_union(f.flexible, versions, None, set(), f.name),
    )
    lost = (f.versions, f.tagged) != (None, None) and (kept.versions, kept.tagged) == (None, None)
    return None if lost else kept


def _span(versions: Versions) -> set[int]:
    return set() if versions is None else set(range(versions[0], min(versions[1], 0x7FFE) + 1))


def _agree(where: str, what: str, old: Versions, new: Versions, versions: Iterable[int]) -> None:
    for v in sorted(versions):
        if in_range(v, old) != in_range(v, new):
            raise SpecConflict(f"{where}: {what} differ at version {v} ({old} vs {new})")


def _union(old: Versions, old_versions: set[int], new: Versions, new_versions: set[int], where: str) -> Versions:
    """What old says for old's versions and new for new's, as one range ("N+" kept open-ended
    where the newest release says so)."""
    claimed = {v for v in old_versions if in_range(v, old)} | {v for v in new_versions if in_range(v, new)}
    newest = max(old_versions | new_versions, default=-1)
    open_ended = any(r is not None and r[1] == TOP and newest in vs and in_range(newest, r)
                     for r, vs in ((old, old_versions), (new, new_versions)))
    return _to_range(claimed, top=open_ended, where=where)


def _to_range(versions: set[int], top: bool, where: str) -> Versions:
    if not versions:
        return None
    low, high = min(versions), max(versions)
    if len(versions) != high - low + 1:
        raise SpecConflict(f"{where}: the releases' versions {sorted(versions)} leave a gap")
    return low, TOP if top else high


def _ordered(newer: list[str], older: list[str]) -> list[str]:
    """newer's names in its order, each name only older has placed after the name older has
    before it (the check of every version's shape catches an order the two disagree on)."""
    out = list(newer)
    for i, name in enumerate(older):
        if name in out:
            continue
        before = next((older[j] for j in range(i - 1, -1, -1) if older[j] in out), None)
        out.insert(0 if before is None else out.index(before) + 1, name)
    return out


def _shape(spec: MessageSpec, struct: StructSpec, version: int) -> list[tuple[object, ...]]:
    """How a version encodes a struct's own fields: in order, each field's name, type, default,
    nullability, compactness and tag."""
    flexible = in_range(version, spec.flexible)
    regular = [f for f in struct.fields if f.present(version) and not f.tagged_in(version)]
    tagged = sorted((f for f in struct.fields if f.tagged_in(version)), key=lambda f: f.tag or 0)
    return [
        (f.name, f.type, repr(f.default), in_range(version, f.nullable), flexible and in_range(version, f.flexible),
         f.tag if f.tagged_in(version) else None)
        for f in regular + tagged
    ]


def _check_shapes(merged: MessageSpec, source: MessageSpec, versions: set[int]) -> None:
    for v in sorted(versions):
        if in_range(v, merged.flexible) != in_range(v, source.flexible):
            raise SpecConflict(f"{merged.name}: flexibility of version {v} changed by the merge")
        for struct in source.structs.values():
            ours, theirs = _shape(merged, merged.structs[struct.name], v), _shape(source, struct, v)
            if ours != theirs:
                pairs = zip(ours, theirs, strict=False)
                diff = next((f"{a} vs {b}" for a, b in pairs if a != b), f"{ours} vs {theirs}")
                raise SpecConflict(
                    f"{merged.name}.{struct.name} v{v}: Kafka {'/'.join(source.sources)}'s fields differ from the"
                    f" merge's: {diff}"
                )
