"""The differential suite against Apache Kafka 4.4.0 (KRaft combined mode): which cases run
there, what 4.4.0 serves that josefk does not and why, and the docs/compatibility.md section.

Kafka 4.4 is KRaft only, and KIP-896 removed the oldest versions of many APIs. So the cases are
of two kinds: the APIs' cases at the versions both brokers serve (compared as against 3.9.2), and
a case for every version josefk still serves that 4.4.0 removed, where 4.4.0's refusal is an
asserted difference (tests/data/known_differences_kafka4.json), not a skip.
"""

from __future__ import annotations

import json
import zipfile

from harness.kafka import KAFKA_4_4
from josefk.protocol.apis import KAFKA_4_VERSIONS, KAFKA_39_VERSIONS, ApiKey
from tests.differential import KAFKA_4_4_0, ROOT, Case, Known, Result, Side, result_table
from tests.differential_cases import CONTROLLER_ONLY, ERRORS, NORMAL

KNOWN_DIFFERENCES_KAFKA4 = ROOT / "tests" / "data" / "known_differences_kafka4.json"
DOC_SECTION_KAFKA4 = "## Differential: josefk vs Kafka 4.4.0"
NOT_SERVED_HEADING = "### APIs Kafka 4.4 serves that josefk does not"
# The APIs compared at every version both serve (the brief of issue 28: the client's first
# requests, produce and fetch, and the two cluster descriptions).
COMPARED = (ApiKey.Metadata, ApiKey.Produce, ApiKey.Fetch, ApiKey.FindCoordinator, ApiKey.DescribeCluster)
UNSUPPORTED_VERSION = 35
# KIP-896 removed Produce v0-2 as well, but Kafka 4 still lists Produce from v0 in ApiVersions
# (KAFKA-18659: librdkafka compresses only for a broker that lists v0) and refuses v0-2 when sent.
ADVERTISED_BUT_REMOVED = {ApiKey.Produce: (0, 2)}
REFUSED = "refused: UNSUPPORTED_VERSION or the connection closed"

# Why josefk does not serve an API (or a version range) that Kafka 4.4.0 serves to clients.
# Keyed by API name; ranges josefk lags on an API it serves share its entry.
ISSUE_28 = "issue 28 (Kafka 4 era)"
_SHARE = f"KIP-932 share groups: {ISSUE_28}"
_SHARE_STATE = f"KIP-932's share-group state, which brokers ask the share coordinator for: {ISSUE_28}"
_STREAMS = f"KIP-1071 streams groups: {ISSUE_28}"
_KRAFT = "KRaft's quorum and registrations: josefk's metadata lives in ZooKeeper (or its embedded store), " \
         "it has no KRaft quorum to describe or change"
# What each version adds, from the comments of Kafka 4.4.0's message specs.
NOT_SERVED_REASONS = {
    "Produce": f"v12 (KIP-890 transactions v2: a transactional produce adds its own partition) and v13 "
               f"(topic ids instead of names, KIP-516): {ISSUE_28}",
    "Fetch": f"v18 (the high watermark in the response, KIP-1166): {ISSUE_28}",
    "ListOffsets": f"v10 (asynchronous remote list offsets, KIP-1075) and v11 (earliest pending upload "
                   f"offset, KIP-1023): tiered storage, which josefk lacks; {ISSUE_28}",
    "Metadata": f"v13 (a top-level error code in the response): {ISSUE_28}",
    "OffsetCommit": f"v10 (topic ids instead of names, KIP-848): {ISSUE_28}",
    "OffsetFetch": f"v10 (topic ids instead of names, KIP-848): {ISSUE_28}",
    "DescribeGroups": f"v6 (GROUP_ID_NOT_FOUND for an unknown group, KIP-1043): {ISSUE_28}",
    "ApiVersions": f"v5 (cluster and node id checks, REBOOTSTRAP_REQUIRED, KIP-1242): {ISSUE_28}",
    "EndTxn": f"v5 (the producer epoch bumped on every transaction, KIP-890 part 2): {ISSUE_28}",
    "WriteTxnMarkers": f"v2 (the transaction version in each marker, KIP-1228): {ISSUE_28}",
    "TxnOffsetCommit": f"v5 (transactions v2, KIP-890) and v6 (topic ids instead of names, KIP-1319): {ISSUE_28}",
    "DescribeLogDirs": f"v5 (a log dir's IsCordoned flag): {ISSUE_28}",
    "DeleteGroups": f"v3 (an error message per group): {ISSUE_28}",
    "AlterPartitionReassignments": f"v1 (allow or refuse a replication factor change): {ISSUE_28}",
    "UpdateFeatures": f"v2 (the response without per-feature results): {ISSUE_28}",
    "DescribeCluster": f"v2 (IncludeFencedBrokers, KIP-1073): {ISSUE_28}",
    "ListTransactions": f"v2 (filter by transactional id pattern, KIP-1152): {ISSUE_28}",
    "DescribeQuorum": _KRAFT,
    "UnregisterBroker": _KRAFT,
    "AddRaftVoter": _KRAFT,
    "RemoveRaftVoter": _KRAFT,
    "UnregisterController": _KRAFT,
    "ListConfigResources": f"v1 (every config resource type, not only client metrics, KIP-1142): {ISSUE_28}",
    "ShareGroupHeartbeat": _SHARE,
    "ShareGroupDescribe": _SHARE,
    "ShareFetch": _SHARE,
    "ShareAcknowledge": _SHARE,
    "InitializeShareGroupState": _SHARE_STATE,
    "ReadShareGroupState": _SHARE_STATE,
    "WriteShareGroupState": _SHARE_STATE,
    "DeleteShareGroupState": _SHARE_STATE,
    "ReadShareGroupStateSummary": _SHARE_STATE,
    "DescribeShareGroupOffsets": _SHARE,
    "AlterShareGroupOffsets": _SHARE,
    "DeleteShareGroupOffsets": _SHARE,
    "StreamsGroupTopologyDescriptionUpdate": _STREAMS,
}


def api_versions(side: Side) -> tuple[dict[int, tuple[int, int]], dict[str, int]]:
    """The versions a broker serves (API key -> (min, max)) and its finalized features' levels."""
    response = side.call(ApiKey.ApiVersions, 3, client_software_name="josefk-differential",
                         client_software_version="1.0")
    assert response.error_code == 0, response
    return ({k.api_key: (k.min_version, k.max_version) for k in response.api_keys},
            {f.name: f.max_version_level for f in response.finalized_features})


def api_names() -> dict[int, str]:
    """Every API key Kafka 4.4.0 knows, named from its own message specs (kafka-clients' jar):
    josefk's ApiKey (3.9.2's specs) lacks the newest."""
    jar = KAFKA_4_4.lib / f"kafka-clients-{KAFKA_4_4.version}.jar"
    names: dict[int, str] = {}
    with zipfile.ZipFile(jar) as z:
        for entry in z.namelist():
            if entry.startswith("common/message/") and entry.endswith("Request.json"):
                text = "\n".join(line for line in z.read(entry).decode().splitlines()
                                 if not line.lstrip().startswith("//"))
                spec = json.loads(text)
                names[spec["apiKey"]] = spec["name"].removesuffix("Request")
    return names


def not_served(kafka: dict[int, tuple[int, int]], josefk: dict[int, tuple[int, int]],
               names: dict[int, str]) -> list[tuple[str, str]]:
    """(API name, versions) Kafka serves and josefk does not, in API key order."""
    out = []
    for key, (lo, hi) in sorted(kafka.items()):
        mine = josefk.get(key)
        missing = [v for v in range(lo, hi + 1) if mine is None or not mine[0] <= v <= mine[1]]
        if missing:
            span = f"v{missing[0]}" if len(missing) == 1 else f"v{missing[0]}-{missing[-1]}"
            out.append((names.get(key, str(key)), span))
    return out


def kafka_serves(kafka: dict[int, tuple[int, int]], api: ApiKey, version: int) -> bool:
    """Whether Kafka 4.4.0 (its ApiVersions answer `kafka`) answers `api` at `version`."""
    theirs = kafka.get(api.value)
    removed = ADVERTISED_BUT_REMOVED.get(api)
    return (theirs is not None and theirs[0] <= version <= theirs[1]
            and not (removed is not None and removed[0] <= version <= removed[1]))


def removed_versions(kafka: dict[int, tuple[int, int]]) -> list[tuple[ApiKey, int]]:
    """(API, version) josefk serves to clients and Kafka 4.4.0 no longer does (KIP-896): below the
    oldest version of 4.4.0's specs. Not what 4.4.0 merely leaves unadvertised (the telemetry
    APIs without a receiver plugin), which it still answers."""
    def removed(api: ApiKey, v: int) -> bool:
        oldest = KAFKA_4_VERSIONS.get(api, (1 << 15, 0))[0]
        return not kafka_serves(kafka, api, v) and (v < oldest or api in ADVERTISED_BUT_REMOVED)

    return [(api, v) for api, (lo, hi) in KAFKA_39_VERSIONS.items() if api not in CONTROLLER_ONLY and api in NORMAL
            for v in range(lo, hi + 1) if removed(api, v)]


def cases(kafka: dict[int, tuple[int, int]]) -> list[Case]:
    """The cases for Kafka 4.4.0 given the versions it serves: COMPARED's normal and error
    cases at the versions both serve, and one refusal case per removed version."""
    def both(api: ApiKey, v: int) -> bool:
        lo, hi = KAFKA_39_VERSIONS[api]
        return lo <= v <= hi and kafka_serves(kafka, api, v)

    refs = (KAFKA_4_4_0,)
    out = [Case(api, v, "normal", NORMAL[api], references=refs)
           for api in COMPARED for v in range(KAFKA_39_VERSIONS[api][0], KAFKA_39_VERSIONS[api][1] + 1)
           if both(api, v)]
    out += [Case(api, v, name, run, references=refs) for api, versions, name, run in ERRORS
            if api in COMPARED for v in versions if both(api, v)]
    out += [Case(api, v, "removed by KIP-896", NORMAL[api], references=refs) for api, v in removed_versions(kafka)]
    return out


def refused(outcome: dict[str, object]) -> bool:
    """Kafka 4.4.0's answer to a version it no longer serves: the connection closed, or every
    step's error code UNSUPPORTED_VERSION."""
    if outcome.get("outcome") == "connection closed by the broker":
        return True
    steps = [s for s in outcome.values() if isinstance(s, dict)]
    return bool(steps) and all(s.get("error_code") == UNSUPPORTED_VERSION for s in steps)


def render(results: list[Result], missing: list[tuple[str, str]], known: list[Known]) -> str:
    identical = sum(1 for r in results if not r.differences)
    lines = [
        DOC_SECTION_KAFKA4, "",
        "Written by tests/test_differential_kafka4.py (`DIFFERENTIAL_WRITE_DOCS=1` rewrites it; otherwise the "
        "test fails when it is out of date). The same raw requests go to Apache Kafka 4.4.0 (KRaft combined "
        "mode, harness/kafka.py KRaftBroker) and to josefk, compared and normalised as in the 3.9.2 section. "
        "The cases: "
        f"{', '.join(a.name for a in COMPARED)} (normal and error cases) at every version both serve, and each "
        "API's normal case at each version josefk serves that Kafka 4.4 removed (KIP-896), where Kafka's "
        "refusal is the asserted difference.",
        "",
        f"Summary: {len(results)} cases, {identical} identical, {len(results) - identical} differ (each "
        f"difference known and explained below); {len(missing)} APIs or version ranges Kafka 4.4.0 serves "
        "and josefk does not.",
        "",
        *result_table(results, shown=2),
    ]
    lines += ["", NOT_SERVED_HEADING, "",
              "From Kafka 4.4.0's ApiVersions answer on its client listener, against josefk's; each with "
              "why josefk does not serve it yet.", ""]
    lines += [f"- {name} {span}: {NOT_SERVED_REASONS[name]}" for name, span in missing]
    lines += ["", "Known differences from Kafka 4.4.0 (tests/data/known_differences_kafka4.json) and why:", ""]
    lines += [f"- {k.api} v{k.versions[0]}-{k.versions[1]} {k.case}, `{k.path}`: {k.reason}" for k in known]
    return "\n".join(lines) + "\n"

