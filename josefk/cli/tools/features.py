"""`josefk features`: Kafka's kafka-features.sh (KIP-584 feature flags).

`describe` reads the supported and finalized features a broker reports in ApiVersions (v3+), as
Kafka's Admin.describeFeatures does; `upgrade`, `downgrade` and `disable` send UpdateFeatures to
the controller. A ZooKeeper-mode Kafka 3.9 broker supports no features, so `describe` prints
nothing and every update fails with the broker's own reason, as with Kafka's tool.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from typing import Any

import kafka.errors as Errors
from kafka.protocol.admin import UpdateFeaturesRequest
from kafka.protocol.metadata import ApiVersionsRequest

from josefk.cli.tools.common import (
    ToolError,
    admin_client,
    error_text,
    load_properties,
    parser,
    quiet_client_logs,
    serves,
)

METADATA_VERSION = "metadata.version"
UPDATE_FEATURES = 57
# Kafka 3.9's MetadataVersion from 3.0-IV1 on (older ones have no feature level): its name and level.
METADATA_LEVELS: dict[str, int] = {
    "3.0-IV1": 1, "3.1-IV0": 2, "3.2-IV0": 3, "3.3-IV0": 4, "3.3-IV1": 5, "3.3-IV2": 6, "3.3-IV3": 7,
    "3.4-IV0": 8, "3.5-IV0": 9, "3.5-IV1": 10, "3.5-IV2": 11, "3.6-IV0": 12, "3.6-IV1": 13, "3.6-IV2": 14,
    "3.7-IV0": 15, "3.7-IV1": 16, "3.7-IV2": 17, "3.7-IV3": 18, "3.7-IV4": 19, "3.8-IV0": 20, "3.9-IV0": 21,
    "4.0-IV0": 22, "4.0-IV1": 23,
}
# Releases before 3.0-IV1 (levels -1) and the release each short name ("3.3") stands for, the last
# sub-version of a production release, as MetadataVersion.fromVersionString reads them.
OLD_VERSIONS = ("0.8.0", "0.8.1", "0.8.2", "0.9.0", "0.10.0-IV0", "0.10.0-IV1", "0.10.1-IV0", "0.10.1-IV1",
                "0.10.1-IV2", "0.10.2-IV0", "0.11.0-IV0", "0.11.0-IV1", "0.11.0-IV2", "1.0-IV0", "1.1-IV0",
                "2.0-IV0", "2.0-IV1", "2.1-IV0", "2.1-IV1", "2.1-IV2", "2.2-IV0", "2.2-IV1", "2.3-IV0", "2.3-IV1",
                "2.4-IV0", "2.4-IV1", "2.5-IV0", "2.6-IV0", "2.7-IV0", "2.7-IV1", "2.7-IV2", "2.8-IV0", "2.8-IV1",
                "3.0-IV0")
LATEST_PRODUCTION = "3.9-IV0"
BOOTSTRAP_MINIMUM = "3.3-IV0"
UPGRADE, SAFE_DOWNGRADE, UNSAFE_DOWNGRADE = 1, 2, 3


def metadata_level(text: str) -> int:
    """The feature level of a metadata.version name ("3.9", "3.3-IV1", "2.8" is -1), or ToolError."""
    levels = {**dict.fromkeys(OLD_VERSIONS, -1), **METADATA_LEVELS}
    production = list(levels)[: list(levels).index(LATEST_PRODUCTION) + 1]
    known = {**levels, **{name.split("-")[0]: levels[name] for name in production}}
    parts = text.split(".")
    width = 3 if text.startswith("0.") else 2
    key = text if width >= len(parts) else ".".join(parts[:width])
    if key not in known:
        names = list(METADATA_LEVELS)
        supported = names[names.index(BOOTSTRAP_MINIMUM): names.index(LATEST_PRODUCTION) + 1]
        raise ToolError(f"Unsupported {METADATA_VERSION} {text}. Supported {METADATA_VERSION} are "
                        + ", ".join(supported))
    return known[key]


def level_text(feature: str, level: int) -> str:
    """A level as Kafka prints it: metadata.version by name."""
    if feature != METADATA_VERSION:
        return str(level)
    return next((name for name, value in METADATA_LEVELS.items() if value == level), f"UNKNOWN {level}")


@dataclass(frozen=True)
class Update:
    level: int
    upgrade_type: int


def _checked(level: int, upgrade_type: int) -> Update:
    """Kafka's FeatureUpdate constructor checks."""
    if level == 0 and upgrade_type == UPGRADE:
        raise ToolError("The upgradeType flag should be set to SAFE_DOWNGRADE or UNSAFE_DOWNGRADE when the "
                        f"provided maxVersionLevel:{level} is < 1.")
    if level < 0:
        raise ToolError("Cannot specify a negative version level.")
    return Update(level, upgrade_type)


def _name_and_level(text: str) -> tuple[str, int]:
    name, sep, level = text.partition("=")
    if not sep:
        raise ToolError(f"Can't parse feature=level string {text}: equals sign not found.")
    digits = level.strip()
    value = int(digits) if re.fullmatch(r"[+-]?[0-9]+", digits) else 1 << 16  # Java's Short.parseShort
    if not -(1 << 15) <= value < 1 << 15:
        raise ToolError(f"Can't parse feature=level string {text}: unable to parse {level.strip()} as a short.")
    return name.strip(), value


def updates(args: argparse.Namespace) -> dict[str, Update]:
    """The updates the command line asks for, checked as Kafka's tool checks them."""
    kind = UPGRADE if args.command == "upgrade" else UNSAFE_DOWNGRADE if args.unsafe else SAFE_DOWNGRADE
    wanted: dict[str, Update] = {}
    if getattr(args, "metadata", None) is not None:
        wanted[METADATA_VERSION] = _checked(metadata_level(args.metadata), kind)
    for text in args.feature or []:
        name, level = (text, 0) if args.command == "disable" else _name_and_level(text)
        if name in wanted:
            raise ToolError(f"Feature {name} was specified more than once.")
        wanted[name] = _checked(level, kind)
    if not wanted:
        raise ToolError(f"You must specify at least one feature to {args.command}")
    if any(not name.strip() for name in wanted):
        raise ToolError("Provided feature can not be empty.")
    return wanted


def describe(admin: Any) -> None:
    request = ApiVersionsRequest(client_software_name="josefk-tools", client_software_version="1",
                                 min_version=3)
    response = admin._manager.run(admin._manager.send, request)  # noqa: SLF001 - no public raw send
    if response.error_code:
        raise Errors.for_code(response.error_code)()
    finalized = {f.name: f.max_version_level for f in response.finalized_features or []}
    epoch = response.finalized_features_epoch
    for feature in sorted(response.supported_features or [], key=lambda f: f.name):
        name = feature.name
        print(f"Feature: {name}\tSupportedMinVersion: {level_text(name, feature.min_version)}\t"
              f"SupportedMaxVersion: {level_text(name, feature.max_version)}\t"
              f"FinalizedVersionLevel: {level_text(name, finalized.get(name, 0))}\t"
              f"Epoch: {epoch if epoch is not None and epoch >= 0 else '-'}")


def _send_updates(admin: Any, wanted: dict[str, Update], dry_run: bool) -> dict[str, str | None]:
    """Each feature's error message, None where it succeeded."""
    if not serves(admin, UPDATE_FEATURES):
        return dict.fromkeys(wanted, "The node does not support UPDATE_FEATURES")
    key = UpdateFeaturesRequest.FeatureUpdateKey
    request = UpdateFeaturesRequest(
        timeout_ms=60_000, validate_only=dry_run, min_version=1 if dry_run else 0,
        feature_updates=[key(feature=name, max_version_level=u.level, upgrade_type=u.upgrade_type,
                             allow_downgrade=u.upgrade_type != UPGRADE) for name, u in wanted.items()])
    response = admin._manager.run(admin._send_request_to_controller, request)  # noqa: SLF001
    if response.error_code:
        message = response.error_message or Errors.for_code(response.error_code).description
        return dict.fromkeys(wanted, message)
    results: dict[str, str | None] = dict.fromkeys(wanted)
    for result in response.results or []:
        if result.error_code:
            results[result.feature] = result.error_message or Errors.for_code(result.error_code).description
    return results


def update(admin: Any, args: argparse.Namespace, wanted: dict[str, Update]) -> int:
    """Kafka's FeatureCommand.update: one line a feature, in name order, then the failure count."""
    results = _send_updates(admin, wanted, args.dry_run)
    failures = 0
    for name in sorted(results):
        level = wanted[name].level
        error = results[name]
        if error is not None:
            what = f"disable {name}" if args.command == "disable" else f"{args.command} {name} to {level}"
            print(f"{'Can not' if args.dry_run else 'Could not'} {what}. {error}")
            failures += 1
        else:
            done = "disabled." if args.command == "disable" else f"{args.command}d to {level}."
            print(f"{name}{' can be ' if args.dry_run else ' was '}{done}")
    if failures:
        print(f"{failures} out of {len(wanted)} operation(s) failed.", file=sys.stderr)
        return 1
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = parser("features", "This tool manages feature flags in Kafka (kafka-features.sh).")
    p.add_argument("--bootstrap-server", required=True, metavar="BOOTSTRAP_SERVER",
                   help="A comma-separated list of host:port pairs to use for establishing the connection to "
                        "the Kafka cluster.")
    p.add_argument("--command-config", metavar="COMMAND_CONFIG",
                   help="Property file containing configs to be passed to Admin Client.")
    commands = p.add_subparsers(dest="command", required=True)
    commands.add_parser("describe", help="Describes the current active feature flags.")
    upgrade = commands.add_parser("upgrade", help="Upgrade one or more feature flags.")
    upgrade.add_argument("--metadata", help="The level to which we should upgrade the metadata. For example, "
                                            "3.3-IV3.")
    upgrade.add_argument("--feature", action="append", help="A feature upgrade we should perform, in "
                         "feature=level format. For example: `metadata.version=5`.")
    upgrade.add_argument("--dry-run", action="store_true", help="Validate this upgrade, but do not perform it.")
    downgrade = commands.add_parser("downgrade", help="Downgrade one or more feature flags.")
    downgrade.add_argument("--metadata", help="The level to which we should downgrade the metadata. For "
                                              "example, 3.3-IV0.")
    downgrade.add_argument("--feature", action="append", help="A feature downgrade we should perform, in "
                           "feature=level format. For example: `metadata.version=5`.")
    downgrade.add_argument("--unsafe", action="store_true", help="Perform this downgrade even if it may "
                                                                 "irreversibly destroy metadata.")
    downgrade.add_argument("--dry-run", action="store_true", help="Validate this downgrade, but do not "
                                                                  "perform it.")
    disable = commands.add_parser("disable", help="Disable one or more feature flags. This is the same as "
                                                  "downgrading the version to zero.")
    disable.add_argument("--feature", action="append", help="A feature flag to disable.")
    disable.add_argument("--unsafe", action="store_true", help="Disable this feature flag even if it may "
                                                               "irreversibly destroy metadata.")
    disable.add_argument("--dry-run", action="store_true", help="Perform a dry-run of this disable operation.")
    return p


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    quiet_client_logs()
    admin = None
    try:
        wanted = updates(args) if args.command != "describe" else {}
        admin = admin_client(args.bootstrap_server, load_properties(args.command_config))
        if args.command == "describe":
            describe(admin)
            return 0
        return update(admin, args, wanted)
    except Exception as e:  # noqa: BLE001 - every failure becomes one line, as Kafka's tool prints it
        print(error_text(e), file=sys.stderr)
        return 1
    finally:
        if admin is not None:
            admin.close()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
