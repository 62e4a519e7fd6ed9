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
from josefk.protocol.apis import KAFKA_4_RAISED, KAFKA_4_VERSIONS, KAFKA_39_VERSIONS, ApiKey, advertised
from tests.differential import KAFKA_4_4_0, ROOT, Case, Known, Result, Side, result_table
from tests.differential_cases import CONTROLLER_ONLY, ERRORS, NEW_VERSION_ERRORS, NORMAL

KNOWN_DIFFERENCES_KAFKA4 = ROOT / "tests" / "data" / "known_differences_kafka4.json"
DOC_SECTION_KAFKA4 = "## Differential: josefk vs Kafka 4.4.0"
NOT_SERVED_HEADING = "### APIs Kafka 4.4 serves that josefk does not"
# The APIs compared at every version both serve (the brief of issue 28: the client's first
# requests, produce and fetch, and the two cluster descriptions).
COMPARED = (ApiKey.Metadata, ApiKey.Produce, ApiKey.Fetch, ApiKey.FindCoordinator, ApiKey.DescribeCluster,
            ApiKey.ShareGroupHeartbeat, ApiKey.ShareGroupDescribe, ApiKey.ShareFetch, ApiKey.ShareAcknowledge,
            ApiKey.DescribeShareGroupOffsets,
            ApiKey.InitializeShareGroupState, ApiKey.ReadShareGroupState, ApiKey.WriteShareGroupState,
            ApiKey.DeleteShareGroupState, ApiKey.ReadShareGroupStateSummary,
            ApiKey.AlterShareGroupOffsets, ApiKey.DeleteShareGroupOffsets,
            ApiKey.StreamsGroupTopologyDescriptionUpdate,  # KIP-1331: as Kafka's default, no description plugin
            ApiKey.ConsumerGroupDescribe)
UNSUPPORTED_VERSION = 35
# KIP-896 removed Produce v0-2 as well, but Kafka 4 still lists Produce from v0 in ApiVersions
# (KAFKA-18659: librdkafka compresses only for a broker that lists v0) and refuses v0-2 when sent.
ADVERTISED_BUT_REMOVED = {ApiKey.Produce: (0, 2)}
REFUSED = "refused: UNSUPPORTED_VERSION or the connection closed"

# Why josefk does not serve an API (or a version range) that Kafka 4.4.0 serves to clients.
# Keyed by API name; ranges josefk lags on an API it serves share its entry.
_KRAFT = "KRaft's quorum and registrations: josefk's metadata lives in ZooKeeper (or its embedded store), " \
         "it has no KRaft quorum to describe or change"
# What each version adds, from the comments of Kafka 4.4.0's message specs.
NOT_SERVED_REASONS = {
    "UpdateFeatures": "v2 (a failure as a top-level error, no per-feature results): the feature checks of a "
                      "ZooKeeper-mode broker (Kafka 3.9's, per feature) are not KRaft's, which v2's shape follows; "
                      "admin clients update features at v1",
    "DescribeQuorum": _KRAFT,
    "UnregisterBroker": _KRAFT,
    "AddRaftVoter": _KRAFT,
    "RemoveRaftVoter": _KRAFT,
    "UnregisterController": _KRAFT,
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
        lo, hi = advertised(api)
        return lo <= v <= hi and kafka_serves(kafka, api, v)

    refs = (KAFKA_4_4_0,)
    out = [Case(api, v, "normal", NORMAL[api], references=refs)
           for api in COMPARED for v in range(advertised(api)[0], advertised(api)[1] + 1) if both(api, v)]
    out += [Case(api, v, name, run, references=refs) for api, versions, name, run in ERRORS
            if api in COMPARED for v in versions if both(api, v)]
    out += [Case(api, v, "removed by KIP-896", NORMAL[api], references=refs) for api, v in removed_versions(kafka)]
    return out + raised_cases(kafka)


def raised_versions(api: ApiKey) -> range:
    """The versions josefk serves beyond Kafka 3.9's newest (KAFKA_4_RAISED)."""
    return range(KAFKA_39_VERSIONS[api][1] + 1, KAFKA_4_RAISED.get(api, KAFKA_39_VERSIONS[api][1]) + 1)


def raised_cases(kafka: dict[int, tuple[int, int]]) -> list[Case]:
    """The APIs raised to Kafka 4.4's versions: at each new version, the API's normal case and
    its error cases (those of tests/differential_cases.py and those of the new versions'
    features, NEW_VERSION_ERRORS); Kafka 4.4.0 is these versions' only reference."""
    refs = (KAFKA_4_4_0,)
    out = []
    for api in KAFKA_4_RAISED:
        new = [v for v in raised_versions(api) if kafka_serves(kafka, api, v)]
        if api not in COMPARED:  # COMPARED's normal cases run at every version both serve already
            out += [Case(api, v, "normal", NORMAL[api], references=refs) for v in new]
        out += [Case(api, v, name, run, references=refs) for a, _versions, name, run in ERRORS if a == api
                for v in new]
    out += [Case(api, v, name, run, references=refs) for api, versions, name, run in NEW_VERSION_ERRORS
            for v in versions if kafka_serves(kafka, api, v) and v in raised_versions(api)]
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
        f"{', '.join(a.name for a in COMPARED)} (normal and error cases) at every version both serve; "
        f"the APIs josefk serves at versions newer than Kafka 3.9's ({', '.join(a.name for a in KAFKA_4_RAISED)}) "
        "with their normal and error cases at each of those versions; and each "
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

