"""The generated message layer (josefk.protocol.messages): every API key and version of the
vendored Kafka 3.9.2 and 4.4.0 specs, merged, round-trips sample values (defaults, nulls, tagged
and unknown tagged fields), encodes byte for byte as kafka-python 3.0.12 does wherever
kafka-python has the version and as classes generated from one release's specs alone do for that
release's versions, follows the specs' rules for fields a version cannot carry, and the committed
generated/ is what the generator gives."""

from __future__ import annotations

import importlib
import importlib.util
import json
import subprocess
import sys
from dataclasses import fields as dataclass_fields
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from kafka.protocol.api_header import RequestHeader as KpRequestHeader
from kafka.protocol.api_header import ResponseHeader as KpResponseHeader
from kafka.protocol.schemas.fields.codecs.types import BitField

from josefk.cli import kafka_messages as apis
from josefk.protocol.messages import generator
from josefk.protocol.messages.api import (
    ApiKey,
    MessageDecodeError,
    UnsupportedVersionError,
    decode_request,
    decode_request_frame,
    encode_request,
    encode_response,
    request_class,
    response_class,
)
from josefk.protocol.messages.generated.api_versions_response import ApiVersionsResponse
from josefk.protocol.messages.generated.produce_request import ProduceRequest
from josefk.protocol.messages.generator import Field, MessageSpec, StructSpec, in_range
from tests.prerequisites import require_files, require_tools

pytestmark = pytest.mark.unit

RELEASES = generator.release_specs(generator.release_dirs())
SPECS = {spec.name: spec for spec in generator.merged_specs(RELEASES)}
SAMPLE_INTS = {"int8": 7, "int16": 300, "uint16": 65000, "int32": 70000, "uint32": 2**31 + 5, "int64": 2**40 + 3}


def classes_of(spec: MessageSpec) -> Any:
    return importlib.import_module(f"josefk.protocol.messages.generated.{generator.module_name(spec.name)}")


def sample(
    spec: MessageSpec, struct: StructSpec, version: int, nulls: bool, unknown_tags: bool, module: Any = None
) -> Any:
    """An instance with every field this version carries away from its default (or null where
    nulls is set and the version allows it); the fields it cannot carry stay at their default.
    Of the classes in `module` (by default the committed generated one of the spec)."""
    module = module or classes_of(spec)
    values: dict[str, Any] = {}
    for f in struct.fields:
        if not (f.present(version) or f.tagged_in(version)):
            continue
        if nulls and in_range(version, f.nullable):
            values[f.attr] = None
        else:
            values[f.attr] = value_of(spec, f, version, nulls, unknown_tags, module)
    if unknown_tags and in_range(version, spec.flexible):
        values["unknown_tagged_fields"] = [(90, b"\x01\x02"), (200, b"")]
    return getattr(module, struct.name)(**values)


def value_of(spec: MessageSpec, f: Field, version: int, nulls: bool, unknown_tags: bool, module: Any = None) -> Any:
    def one(t: str, i: int) -> Any:
        if t in SAMPLE_INTS:
            return SAMPLE_INTS[t] + i
        if t == "bool":
            return str(f.default).lower() != "true"
        if t == "float64":
            return 1.5 + i
        if t == "string":
            return f"{f.attr}-é{i}"
        if t in ("bytes", "records"):
            return bytes([i, 1, 2, 3]) * 3
        if t == "uuid":
            return UUID(int=0x1234_5678_9ABC + i)
        return sample(spec, spec.structs[t], version, nulls, unknown_tags, module)

    if f.is_array:
        return [one(f.element, i) for i in range(2)]
    return one(f.type, 0)


def all_versions(spec: MessageSpec) -> range:
    return range(spec.valid[0], spec.valid[1] + 1)


def root_class(spec: MessageSpec) -> Any:
    return getattr(classes_of(spec), spec.name)


@pytest.mark.parametrize("name", sorted(SPECS))
def test_every_version_round_trips_defaults_values_nulls_and_unknown_tags(name):
    spec = SPECS[name]
    cls = root_class(spec)
    for version in all_versions(spec):
        for nulls in (False, True):
            for unknown in (False, True):
                message = sample(spec, spec.root, version, nulls, unknown)
                encoded = message.encode(version)
                decoded = cls.decode(encoded, version)
                assert decoded == message, (version, nulls, unknown)
                assert decoded.encode(version) == encoded
        encoded = cls().encode(version) if not default_is_unencodable(spec, version) else None
        if encoded is not None:
            assert cls.decode(encoded, version) == cls()


def default_is_unencodable(spec: MessageSpec, version: int) -> bool:
    """A null default on a field that is not nullable at this version (Kafka cannot write it either)."""
    def walk(struct: StructSpec) -> bool:
        for f in struct.fields:
            if not f.present(version):
                continue
            if generator.default_value(f) == "None" and not in_range(version, f.nullable):
                return True
            nested = f.is_struct and not f.is_array and generator.default_value(f) != "None"
            if nested and walk(spec.structs[f.element]):
                return True
        return False

    return walk(spec.root)


# kafka-python names its AuthorizedOperations bit fields (held as sets of bits)
# authorized_operations.
KP_RENAMED = {
    "TxnOffsetCommitRequest": {"generation_id_or_member_epoch": "generation_id"},  # Kafka 4's name
    "DescribeClusterResponse": {"cluster_authorized_operations": "authorized_operations"},
    "MetadataResponse": {
        "cluster_authorized_operations": "authorized_operations",
        "topic_authorized_operations": "authorized_operations",
    },
}


def to_plain(value: Any, kp_struct: Any, renamed: dict[str, str]) -> Any:
    """A generated dataclass as the nested dicts kafka-python's struct encoder accepts."""
    if hasattr(value, "__dataclass_fields__"):
        plain = {}
        for f in dataclass_fields(value):
            if f.name == "unknown_tagged_fields":
                continue
            name = renamed.get(f.name, f.name)
            if name not in kp_struct.fields:  # Kafka 4's, at its default (the bytes compare says if not)
                continue
            kp_field = kp_struct.fields[name]
            v = to_plain(getattr(value, f.name), kp_field, renamed)
            kp_type = getattr(kp_field, "_type", None)
            if kp_type is BitField:
                v = kp_type.from_32_bit_field(v)
            plain[name] = v
        return plain
    if isinstance(value, list):
        return [to_plain(v, kp_struct, renamed) for v in value]
    return value


def kafka_python_class(spec: MessageSpec) -> Any:
    """kafka-python's class for the same message, if it has one by that name."""
    index = apis._REQUESTS if spec.kind == "request" else apis._RESPONSES
    if spec.api_key is None:
        return None
    kp_cls = index.get(spec.api_key)
    return kp_cls if kp_cls is not None and kp_cls.name == spec.name else None


KP_CASES = [
    (spec.name, version)
    for spec in SPECS.values()
    if spec.kind != "header" and (kp := kafka_python_class(spec)) is not None
    for version in all_versions(spec)
    if version <= kp.max_version
]


@pytest.mark.parametrize(("name", "version"), KP_CASES, ids=[f"{n}-v{v}" for n, v in KP_CASES])
def test_encoding_matches_kafka_python_byte_for_byte(name, version):
    spec = SPECS[name]
    cls = root_class(spec)
    kp_cls = kafka_python_class(spec)
    flexible = kp_cls.flexible_version_q(version)
    assert cls.is_flexible(version) == flexible
    for nulls in (False, True):
        message = sample(spec, spec.root, version, nulls, unknown_tags=False)
        plain = to_plain(message, kp_cls._struct, KP_RENAMED.get(name, {}))
        theirs = bytes(kp_cls._struct.encode(plain, version=version, compact=flexible, tagged=flexible))
        assert bytes(message.encode(version)) == theirs, nulls
        assert cls.decode(theirs, version) == message


def test_kafka_python_comparison_covers_every_api_it_has():
    compared = {(SPECS[name].kind, SPECS[name].api_key) for name, _ in KP_CASES}
    known = {("request", key) for key in apis._REQUESTS} | {("response", key) for key in apis._RESPONSES}
    assert known - compared == set()
    assert len(compared) > 100  # kafka-python has none of the ZooKeeper-era controller RPCs


@pytest.mark.parametrize("version", [0, 1, 2])
def test_request_header_matches_kafka_python(version):
    from josefk.protocol.messages.generated.request_header import RequestHeader

    header = RequestHeader(3, 12, 77, "client-é" if version else "")
    ours = bytes(header.encode(version))
    kp = KpRequestHeader(request_api_key=3, request_api_version=12, correlation_id=77, client_id=header.client_id)
    assert ours == bytes(kp.encode(flexible=version == 2))[: len(ours)] if version else ours == bytes.fromhex(
        "0003000c0000004d"
    )
    assert RequestHeader.decode(ours, version) == header


@pytest.mark.parametrize("version", [0, 1])
def test_response_header_matches_kafka_python(version):
    from josefk.protocol.messages.generated.response_header import ResponseHeader

    ours = bytes(ResponseHeader(123456).encode(version))
    assert ours == bytes(KpResponseHeader(correlation_id=123456).encode(flexible=version == 1))


def test_a_non_ignorable_field_a_version_cannot_carry_is_refused():
    message = ProduceRequest(transactional_id="txn")  # ProduceRequest.TransactionalId: v3+
    assert message.encode(3)
    with pytest.raises(UnsupportedVersionError, match="TransactionalId cannot be represented at version 2"):
        message.encode(2)


@pytest.mark.parametrize("name", sorted(SPECS))
def test_fields_absent_below_their_version_must_be_default_unless_ignorable(name):
    """Kafka's rule, for every top-level field of every version: a non-default value a version
    cannot carry raises if the field is not ignorable, and is dropped (decodes as the default)
    if it is."""
    spec = SPECS[name]
    cls = root_class(spec)
    for version in all_versions(spec):
        for f in spec.root.fields:
            if f.present(version) or f.tagged_in(version):
                continue
            value = value_of(spec, f, f.versions[0] if f.versions else version, False, False)
            message = cls(**{f.attr: value})
            if f.ignorable:
                assert getattr(cls.decode(message.encode(version), version), f.attr) == getattr(cls(), f.attr)
            else:
                with pytest.raises(UnsupportedVersionError, match=f"{f.name} cannot be represented"):
                    message.encode(version)


def test_a_null_where_the_version_is_not_nullable_is_refused():
    checked = 0
    for spec in SPECS.values():
        for version in all_versions(spec):
            for f in spec.root.fields:
                if f.present(version) and f.nullable is not None and not in_range(version, f.nullable):
                    message = root_class(spec)(**{f.attr: None})
                    with pytest.raises(UnsupportedVersionError, match=f"{f.name} is not nullable at version {version}"):
                        message.encode(version)
                    checked += 1
    assert checked >= 10


def _i16(n: int) -> bytes:
    return n.to_bytes(2, "big", signed=True)


def _i32(n: int) -> bytes:
    return n.to_bytes(4, "big", signed=True)


PRODUCE_V9_HEAD = b"\x00" + _i16(1) + _i32(1000) + b"\x02"  # null transactional id, acks, timeout, 1 topic
# A null where the version does not allow one, at any depth, refused as Kafka's readers refuse it
# (the broker closes the connection with this line). Kafka names the field in camelCase.
NULL_REFUSED = [
    ("top-level array", ApiKey.Metadata, 0, _i32(-1), "topics"),
    ("string in a struct array", ApiKey.Produce, 9, PRODUCE_V9_HEAD + b"\x00", "name"),
    ("array in a struct array", ApiKey.Produce, 9, PRODUCE_V9_HEAD + b"\x02t\x00", "partitionData"),
    ("element of a string array", ApiKey.DescribeGroups, 0, _i32(2) + _i16(1) + b"g" + _i16(-1), "groups element"),
    ("string in a struct", ApiKey.DescribeTopicPartitions, 0,
     b"\x02\x02t\x00" + _i32(10) + b"\x01\x00", "topicName"),  # topics [t], limit, cursor present, null name
    ("non-compact string", ApiKey.SaslHandshake, 0, _i16(-1), "mechanism"),
    ("bytes", ApiKey.SaslAuthenticate, 0, _i32(-1), "authBytes"),
]


@pytest.mark.parametrize(("api_key", "version", "body", "field"), [c[1:] for c in NULL_REFUSED],
                         ids=[c[0] for c in NULL_REFUSED])
def test_a_null_in_a_non_nullable_field_is_refused_in_kafkas_words(api_key, version, body, field):
    with pytest.raises(MessageDecodeError) as raised:
        decode_request(api_key, version, body)
    assert str(raised.value) == f"non-nullable field {field} was serialized as null"


def test_a_null_the_version_allows_decodes_as_none():
    assert decode_request(ApiKey.Metadata, 1, _i32(-1)).topics is None  # type: ignore[attr-defined]
    produce = decode_request(ApiKey.Produce, 9, PRODUCE_V9_HEAD + b"\x02t\x02" + _i32(0) + b"\x00\x00\x00\x00")
    assert produce.transactional_id is None  # type: ignore[attr-defined]
    assert produce.topic_data[0].partition_data[0].records is None  # type: ignore[attr-defined]
    partitions = decode_request(ApiKey.DescribeTopicPartitions, 0, b"\x01" + _i32(10) + b"\xff\x00")
    assert partitions.cursor is None  # type: ignore[attr-defined]


def test_tagged_fields_are_written_only_away_from_their_default():
    from josefk.protocol.messages.generated.fetch_request import FetchRequest

    plain = FetchRequest(max_wait_ms=500).encode(12)
    assert FetchRequest(max_wait_ms=500, cluster_id=None).encode(12) == plain  # tag 0, default null
    tagged = FetchRequest(max_wait_ms=500, cluster_id="c").encode(12)
    assert len(tagged) == len(plain) + 1 + 1 + 2  # tag, size, compact "c"
    assert FetchRequest.decode(tagged, 12).cluster_id == "c"


RECORDED = json.loads((Path(__file__).parent / "data" / "recorded_requests.json").read_text())


@pytest.mark.parametrize("frame", RECORDED, ids=lambda f: f"{f['client']}-{f['api_key']}-v{f['version']}")
def test_recorded_client_requests_decode_and_re_encode_byte_for_byte(frame):
    payload = bytes.fromhex(frame["hex"])
    header, body = decode_request_frame(payload)
    assert (header.request_api_key, header.request_api_version) == (frame["api_key"], frame["version"])
    assert type(body) is request_class(frame["api_key"])
    frame_bytes = encode_request(body, header.request_api_version, header.correlation_id, header.client_id)
    assert bytes(frame_bytes) == len(payload).to_bytes(4, "big") + payload


def test_recorded_produce_carries_the_batches_as_a_view_of_the_request():
    frame = next(f for f in RECORDED if f["api_key"] == 0)
    payload = bytes.fromhex(frame["hex"])
    _, body = decode_request_frame(payload)
    records = body.topic_data[0].partition_data[0].records  # type: ignore[attr-defined]
    assert isinstance(records, memoryview) and records.obj is not None
    assert bytes(records) in payload


def test_api_versions_response_header_is_v0_even_when_flexible():
    response = ApiVersionsResponse(error_code=0)
    frame = encode_response(response, 3, correlation_id=9)
    assert frame[4:8] == (9).to_bytes(4, "big") and frame[8:10] == b"\x00\x00"  # no tag buffer after the id


def test_truncated_and_malformed_bodies_raise_decode_errors():
    body = ProduceRequest(acks=-1, timeout_ms=1000).encode(9)
    for cut in range(len(body)):
        with pytest.raises(MessageDecodeError):
            decode_request(0, 9, body[:cut])
    with pytest.raises(MessageDecodeError, match="UTF-8"):
        decode_request(0, 3, b"\x00\x02\xff\xfe" + bytes(10))


def test_an_array_count_beyond_the_bytes_left_is_refused_before_looping():
    # ApiVersions v0 response: error code, then the count of ApiKeys (3 int16s each).
    with pytest.raises(MessageDecodeError, match="2147483647 elements with only 0 bytes left"):
        response_class(18).decode(b"\x00\x00\x7f\xff\xff\xff", 0)


def test_api_keys_carry_kafka_python_names():
    from kafka.protocol.api_key import ApiKey as KpApiKey

    shared = {key.value for key in ApiKey} & {key.value for key in KpApiKey}
    assert len(shared) > 60
    assert {k for k in shared if ApiKey(k).name != KpApiKey(k).name} == set()
    assert ApiKey.ListConfigResources == 74  # Kafka 4.1's name of 3.9's ListClientMetricsResources
    assert ApiKey.LeaderAndIsr == 4 and ApiKey.Produce == 0


@pytest.mark.parametrize("version", [8, 9])
def test_strings_longer_than_32767_bytes_are_refused_compact_or_not(version):
    ProduceRequest(transactional_id="t" * 32767).encode(version)
    with pytest.raises(UnsupportedVersionError, match="32768 bytes is longer than 32767"):
        ProduceRequest(transactional_id="t" * 32768).encode(version)


def test_unknown_api_and_version_are_refused():
    with pytest.raises(UnsupportedVersionError):
        request_class(999)
    with pytest.raises(UnsupportedVersionError, match="no version 14"):  # Kafka 4.4's Produce: v13
        request_class(0)().encode(14)


def test_a_common_struct_is_defined_before_every_struct_that_holds_it(tmp_path):
    """Kafka 4's StreamsGroupDescribeResponse shape: a common struct used first at the top
    level and then inside a later struct."""
    spec_json = {
        "apiKey": 1000, "type": "response", "name": "ShapeResponse", "validVersions": "0", "flexibleVersions": "0+",
        "fields": [
            {"name": "First", "type": "Node", "versions": "0+"},
            {"name": "Store", "type": "Store", "versions": "0+", "fields": [
                {"name": "Source", "type": "Node", "versions": "0+"}]},
        ],
        "commonStructs": [{"name": "Node", "versions": "0+", "fields": [
            {"name": "Name", "type": "string", "versions": "0+", "default": "n"}]}],
    }
    path = tmp_path / "ShapeResponse.json"
    path.write_text("// a comment, as the specs have\n" + json.dumps(spec_json))
    module_path = tmp_path / "shape_response.py"
    module_path.write_text(generator.Module(generator.load(path)).render())
    loader = importlib.util.spec_from_file_location("shape_response", module_path)
    assert loader is not None and loader.loader is not None
    module = importlib.util.module_from_spec(loader)
    sys.modules["shape_response"] = module  # dataclasses read ClassVar off the module
    try:
        loader.loader.exec_module(module)
        message = module.ShapeResponse()
        assert message.store.source.name == "n"
        assert module.ShapeResponse.decode(message.encode(0), 0) == message
    finally:
        del sys.modules["shape_response"]


def test_committed_generated_code_is_what_the_vendored_specs_give():
    files = generator.generate()
    for name, text in files.items():
        stale = f"{name} is stale: run python -m josefk.protocol.messages.generator"
        assert (generator.OUT / name).read_text() == text, stale
    assert {p.name for p in generator.OUT.glob("*.py")} == set(files)


def test_vendored_specs_are_kafka_392_and_440_with_their_license_headers():
    assert generator.SPEC_VERSIONS == ("3.9.2", "4.4.0")  # specs/<version>/VERSION, written by --import-specs
    for folder in generator.release_dirs():
        assert folder.name == (folder / "VERSION").read_text().strip()
        for path in folder.glob("*.json"):
            assert "Licensed to the Apache Software Foundation" in path.read_text()[:200], path.name
        assert (folder / "NOTICE").read_text().startswith("Apache Kafka")


@pytest.fixture(scope="module")
def release_modules(tmp_path_factory):
    """Kafka release -> a package of classes generated from that release's specs alone, imported
    from a temporary folder (release_<version>, e.g. release_3_9_2)."""
    root = tmp_path_factory.mktemp("releases")
    packages = {}
    for folder in generator.release_dirs():
        package = "release_" + folder.name.replace(".", "_")
        (root / package).mkdir()
        for name, text in generator.generate([folder]).items():
            (root / package / name).write_text(text)
        packages[folder.name] = package
    sys.path.insert(0, str(root))
    try:
        yield {release: importlib.import_module(package) and package for release, package in packages.items()}
    finally:
        sys.path.remove(str(root))
        for name in [m for m in sys.modules if m.split(".")[0] in packages.values()]:
            del sys.modules[name]


def redefined_later(release: str, alone: MessageSpec, version: int) -> bool:
    later = list(RELEASES)[list(RELEASES).index(release) + 1:]
    return any(s.kind == alone.kind and s.api_key == alone.api_key and in_range(version, s.valid)
               for r in later for s in RELEASES[r])


RELEASE_CASES = [(release, spec.name) for release, specs in RELEASES.items() for spec in specs]


@pytest.mark.parametrize(("release", "name"), RELEASE_CASES, ids=[f"{r}-{n}" for r, n in RELEASE_CASES])
def test_merged_classes_encode_each_releases_versions_as_that_release_alone(release_modules, release, name):
    """Both ways for every version of the release: the release-only class's encoding of a sample
    with every field set is what the merged class re-encodes it as, and the other way round."""
    alone = next(s for s in RELEASES[release] if s.name == name)
    merged = next(s for s in SPECS.values() if (s.kind, s.api_key if s.api_key is not None else s.name) ==
                  (alone.kind, alone.api_key if alone.api_key is not None else alone.name))
    module = importlib.import_module(f"{release_modules[release]}.{generator.module_name(name)}")
    theirs_cls, ours_cls = getattr(module, name), root_class(merged)
    for version in all_versions(alone):
        if version == alone.unstable_from and redefined_later(release, alone, version):
            continue  # an unstable version a newer release redefines: the newer one's (below)
        for nulls in (False, True):
            for unknown in (False, True):
                theirs = bytes(sample(alone, alone.root, version, nulls, unknown, module).encode(version))
                assert bytes(ours_cls.decode(theirs, version).encode(version)) == theirs, (version, nulls, unknown)
                ours = bytes(sample(merged, merged.root, version, nulls, unknown).encode(version))
                assert bytes(theirs_cls.decode(ours, version).encode(version)) == ours, (version, nulls, unknown)


def test_the_merge_covers_both_releases_versions():
    produce, fetch = root_class(SPECS["ProduceRequest"]), root_class(SPECS["FetchRequest"])
    assert (produce.MIN_VERSION, produce.MAX_VERSION) == (0, 13)  # 3.9: 0-11; 4.4: 3-13
    assert (fetch.MIN_VERSION, fetch.MAX_VERSION) == (0, 18)
    assert request_class(ApiKey.LeaderAndIsr).MAX_VERSION == 7  # gone from Kafka 4
    assert request_class(ApiKey.ConsumerGroupHeartbeat).MAX_VERSION >= 1  # new in 4.x
    assert SPECS["ProduceRequest"].sources == ("3.9.2", "4.4.0")


def test_an_older_releases_unstable_version_is_the_newer_releases():
    """3.9's early-access share-group RPCs (latestVersionUnstable, never advertised) changed their
    v0 by 4.x; josefk speaks 4.x's."""
    from josefk.protocol.messages.generated.read_share_group_state_summary_response import PartitionResult

    alone = next(s for s in RELEASES["3.9.2"] if s.name == "ReadShareGroupStateSummaryResponse")
    assert alone.unstable_from == 0
    assert "leader_epoch" not in {f.attr for f in alone.structs["PartitionResult"].fields}
    assert PartitionResult(leader_epoch=5) != PartitionResult()  # 4.4's v0 field


def test_kafka_4_versions_are_what_a_440_broker_advertises():
    from josefk.protocol.apis import KAFKA_4_VERSIONS

    assert KAFKA_4_VERSIONS[ApiKey.Produce] == (3, 13)  # KIP-896 dropped v0-2
    assert KAFKA_4_VERSIONS[ApiKey.ConsumerGroupHeartbeat] == (0, 1)
    assert ApiKey.LeaderAndIsr not in KAFKA_4_VERSIONS  # ZooKeeper-era controller RPC, gone
    assert ApiKey.Vote not in KAFKA_4_VERSIONS  # a controller listener's only
    assert request_class(ApiKey.InitProducerId).MAX_VERSION == 6
    assert KAFKA_4_VERSIONS[ApiKey.InitProducerId] == (0, 5)  # 4.4's v6 is latestVersionUnstable
    assert KAFKA_4_VERSIONS[ApiKey.ListOffsets] == (1, 11)  # "latestVersionUnstable": false


# Kafka's own message classes, one JVM per kafka-clients jar (compat/java/MessageRoundTrip.java).
JAVA_ENVS = {"3.9.2": "java", "4.4.0": "java-4"}


def kafka_round_trip(release: str, lines: list[str]) -> list[str]:
    """Each "Name version hex" line decoded and re-encoded by Kafka's <Name>Data of the release."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "compat"))
    try:
        import setup_envs
    finally:
        sys.path.pop(0)
    require_tools("java", "javac")
    env = JAVA_ENVS[release]
    require_files(setup_envs.ENVS / env / "lib", ["kafka-clients.jar"], f"python compat/setup_envs.py --only {env}")
    setup_envs.setup_java(force=False, env_name=env)
    result = subprocess.run(["java", "-cp", setup_envs.java_classpath(env), "MessageRoundTrip"], input="\n".join(lines),
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


@pytest.mark.parametrize("release", list(RELEASES))
def test_kafkas_own_classes_re_encode_josefks_encodings_byte_for_byte(release):
    """Every message and version of the release, each with every field set (values, then nulls,
    both with unknown tags), encoded by josefk's merged classes: Kafka's classes of that release
    read all of it and write it back the same."""
    cases: list[tuple[str, int, bytes]] = []
    for alone in RELEASES[release]:
        merged = next(s for s in SPECS.values() if (s.kind, s.api_key if s.api_key is not None else s.name) ==
                      (alone.kind, alone.api_key if alone.api_key is not None else alone.name))
        for version in all_versions(alone):
            if version == alone.unstable_from and redefined_later(release, alone, version):
                continue
            for nulls, unknown in ((False, False), (True, True), (False, True)):
                encoded = bytes(sample(merged, merged.root, version, nulls, unknown).encode(version))
                cases.append((alone.name, version, encoded))
    answers = kafka_round_trip(release, [f"{name} {version} {body.hex()}" for name, version, body in cases])
    assert len(answers) == len(cases)
    wrong = [f"{name} v{version}: {answer[:200]}" for (name, version, body), answer in zip(cases, answers, strict=True)
             if answer != f"OK {body.hex()}"]
    assert not wrong, f"{len(wrong)} of {len(cases)}: " + "\n".join(wrong[:20])
    assert len(cases) > 1500


def spec_file(folder: Path, release: str, fields: list[dict[str, Any]], valid: str = "0-2") -> MessageSpec:
    """A ShapeRequest spec of a made-up release, loaded."""
    folder.mkdir(exist_ok=True)
    path = folder / "ShapeRequest.json"
    path.write_text(json.dumps({"apiKey": 1000, "type": "request", "name": "ShapeRequest", "validVersions": valid,
                                "flexibleVersions": "1+", "fields": fields}))
    return generator.load(path, release)


OLD_FIELDS: list[dict[str, Any]] = [{"name": "Id", "type": "int32", "versions": "0+"},
              {"name": "Topics", "type": "[]Topic", "versions": "0+", "fields": [
                  {"name": "Name", "type": "string", "versions": "0+"},
                  {"name": "Hint", "type": "string", "versions": "1+", "nullableVersions": "1+", "default": "null",
                   "taggedVersions": "1+", "tag": 0}]}]


def changed(path: tuple[int, ...], **edit: Any) -> list[dict[str, Any]]:
    fields = json.loads(json.dumps(OLD_FIELDS))
    target = fields[path[0]]
    for i in path[1:]:
        target = target["fields"][i]
    target.update(edit)
    return fields


CONFLICTS = [
    ("type", (0,), {"type": "int64"}, "ShapeRequest.ShapeRequest.Id: type 'int32' vs 'int64'"),
    ("default", (1, 0), {"default": "x"}, "ShapeRequest.Topic.Name: default None vs 'x'"),
    ("tag", (1, 1), {"tag": 1}, "ShapeRequest.Topic.Hint: tag 0 vs 1"),
    ("nullability", (1, 0), {"nullableVersions": "2+"}, "ShapeRequest.Topic.Name: nullable differ at version 2"),
    ("versions", (0,), {"versions": "3+"}, "ShapeRequest.ShapeRequest.Id: versions differ at version 2"),
]


@pytest.mark.parametrize(("path", "edit", "message"), [c[1:] for c in CONFLICTS], ids=[c[0] for c in CONFLICTS])
def test_releases_that_disagree_about_a_shared_version_fail_the_generation(tmp_path, path, edit, message):
    from josefk.protocol.messages.merge import SpecConflict, merge

    old = spec_file(tmp_path / "old", "1.0", OLD_FIELDS)
    new = spec_file(tmp_path / "new", "2.0", changed(path, **edit), valid="2-3")
    with pytest.raises(SpecConflict) as raised:
        merge(old, new)
    assert str(raised.value).startswith(message)


def test_a_field_in_another_place_or_renamed_fails_as_a_shape_of_a_version(tmp_path):
    from josefk.protocol.messages.merge import SpecConflict, merge

    old = spec_file(tmp_path / "old", "1.0", OLD_FIELDS)
    renamed = spec_file(tmp_path / "renamed", "2.0", changed((0,), name="Ident"), valid="2-3")
    with pytest.raises(SpecConflict, match=r"ShapeRequest.ShapeRequest v2: Kafka 1.0's fields differ from the merge's"):
        merge(old, renamed)
    moved = spec_file(tmp_path / "moved", "2.0", [OLD_FIELDS[1], OLD_FIELDS[0]], valid="2-3")
    with pytest.raises(SpecConflict, match="ShapeRequest.ShapeRequest v0: Kafka 1.0's fields differ"):
        merge(old, moved)


def test_a_merge_unites_versions_and_keeps_the_older_field_order(tmp_path):
    from josefk.protocol.messages.merge import merge

    old = spec_file(tmp_path / "old", "1.0", OLD_FIELDS)
    new_fields = [OLD_FIELDS[0], {"name": "TopicIds", "type": "[]uuid", "versions": "3+"}, OLD_FIELDS[1]]
    new_fields[2] = {**OLD_FIELDS[1], "versions": "0-2"}
    merged = merge(old, spec_file(tmp_path / "new", "2.0", new_fields, valid="2-3"))
    assert merged.valid == (0, 3) and merged.sources == ("1.0", "2.0")
    top = generator.TOP
    assert [(f.name, f.versions) for f in merged.root.fields] == [("Id", (0, top)), ("TopicIds", (3, top)),
                                                                  ("Topics", (0, 2))]
    assert [f.name for f in merged.root.in_declared_order()] == ["Id", "Topics", "TopicIds"]
