"""`josefk delegation-tokens`: Kafka's kafka-delegation-tokens.sh (KIP-48).

Creates, renews, expires and describes delegation tokens over one authenticated connection
(the --command-config file's security.protocol, sasl.mechanism and sasl.jaas.config), with
Kafka's options, checks and output: the same lines, the same columns, the same dates
(yyyy-MM-dd'T'HH:mm, local time). On an error Kafka's tool prints the exception's message and
a Java stack trace; this one prints the message alone.
"""

from __future__ import annotations

import argparse
import base64
import sys
import time
from collections.abc import Sequence
from typing import Any

from josefk.cli.tools import wire
from josefk.cli.tools.common import ToolError, client_config, load_properties, parser
from josefk.protocol.apis import ApiKey
from josefk.protocol.messages.generated.create_delegation_token_request import CreatableRenewers
from josefk.protocol.messages.generated.describe_delegation_token_request import DescribeDelegationTokenOwner

# Each API's newest version this tool speaks; it sends the highest one the broker supports.
NEWEST = {ApiKey.CreateDelegationToken: 3, ApiKey.RenewDelegationToken: 2, ApiKey.ExpireDelegationToken: 2,
          ApiKey.DescribeDelegationToken: 3}
# Kafka's exception for each token error code (Errors.java), as its tool prints it.
EXCEPTIONS = {
    29: ("ClusterAuthorizationException", "Cluster authorization failed."),
    35: ("UnsupportedVersionException", "The version of API is not supported."),
    58: ("SaslAuthenticationException", "SASL Authentication failed."),
    61: ("DelegationTokenDisabledException", "Delegation Token feature is not enabled."),
    62: ("DelegationTokenNotFoundException", "Delegation Token is not found on server."),
    63: ("DelegationTokenOwnerMismatchException", "Specified Principal is not valid Owner/Renewer."),
    64: ("UnsupportedByAuthenticationException", "Delegation Token requests are not allowed on PLAINTEXT/1-way "
         "SSL channels and on delegation token authenticated channels."),
    65: ("DelegationTokenAuthorizationException", "Delegation Token authorization failed."),
    66: ("DelegationTokenExpiredException", "Delegation Token is expired."),
    87: ("InvalidPrincipalTypeException", "Request principal deserialization failed during forwarding. This "
         "indicates an internal error on the broker cluster security setup."),
}
COLUMNS = ("TOKENID", "HMAC", "OWNER", "REQUESTER", "RENEWERS", "ISSUEDATE", "EXPIRYDATE", "MAXDATE")
WIDTHS = (15, 30, 15, 15, 25, 15, 15, 15)


def _check(code: int) -> None:
    if code:
        name, text = EXCEPTIONS.get(code, (f"KafkaException (error {code})", "The broker refused the request."))
        raise ToolError(f"org.apache.kafka.common.errors.{name}: {text}")


def principal(text: str) -> tuple[str, str]:
    """`principalType:name`, as Kafka's SecurityUtils.parseKafkaPrincipal reads it."""
    kind, sep, name = text.strip().partition(":")
    if not sep or not kind or not name:
        raise ToolError(f"expected a string in format principalType:principalName but got {text.strip()}")
    return kind, name


def _date(ms: int) -> str:
    return time.strftime("%Y-%m-%dT%H:%M", time.localtime(ms / 1000))


def _row(cells: Sequence[str]) -> str:
    return "\n" + " ".join(cell.ljust(width) for cell, width in zip(cells, WIDTHS, strict=True)) + "\n"


def _print_tokens(tokens: list[dict[str, Any]]) -> None:
    """Kafka's printToken: a blank line, the header, and each token after a blank line."""
    sys.stdout.write(_row(COLUMNS))
    for t in tokens:
        sys.stdout.write(_row([t["token_id"], base64.b64encode(t["hmac"]).decode(), t["owner"], t["requester"],
                               "[" + ", ".join(t["renewers"]) + "]", _date(t["issue"]), _date(t["expiry"]),
                               _date(t["max"])]))


class Tokens:
    """The four token APIs over one connection, each at the highest version both sides speak."""

    def __init__(self, connection: wire.BrokerConnection) -> None:
        self.connection = connection
        response = connection.send(ApiKey.ApiVersions, 2)
        _check(response.error_code)
        broker = {k.api_key: k.max_version for k in response.api_keys}
        self.versions = {key: min(newest, broker[key]) for key, newest in NEWEST.items() if key in broker}

    def send(self, api_key: ApiKey, **fields: Any) -> Any:
        if api_key not in self.versions:
            raise ToolError(f"org.apache.kafka.common.errors.UnsupportedVersionException: The node does not "
                            f"support {api_key.name}")
        response = self.connection.send(api_key, self.versions[api_key], **fields)
        _check(response.error_code)
        return response


def _requester(kind: str | None, name: str | None, owner: str) -> str:
    """The token's requester; before v3 the broker names none, and the requester is the owner."""
    return f"{kind}:{name}" if kind else owner


def create(tokens: Tokens, args: argparse.Namespace) -> None:
    renewers = [principal(p) for p in args.renewer_principal or []]
    print(f"Calling create token operation with renewers :[{', '.join(f'{k}:{n}' for k, n in renewers)}] , "
          f"max-life-time-period :{args.max_life_time_period}")
    owners = [principal(p) for p in args.owner_principal or []]
    owner = {"owner_principal_type": owners[0][0], "owner_principal_name": owners[0][1]} if owners else {}
    if owners and tokens.versions.get(ApiKey.CreateDelegationToken, 0) < 3:
        raise ToolError("org.apache.kafka.common.errors.UnsupportedVersionException: Creation of tokens for "
                        "other users is not supported by this broker")
    r = tokens.send(ApiKey.CreateDelegationToken, max_lifetime_ms=args.max_life_time_period,
                    renewers=[CreatableRenewers(principal_type=k, principal_name=n) for k, n in renewers], **owner)
    owner_text = f"{r.principal_type}:{r.principal_name}"
    requester = _requester(r.token_requester_principal_type, r.token_requester_principal_name, owner_text)
    print(f"Created delegation token with tokenId : {r.token_id}")
    _print_tokens([{"token_id": r.token_id, "hmac": bytes(r.hmac), "owner": owner_text, "requester": requester,
                    "renewers": [f"{k}:{n}" for k, n in renewers], "issue": r.issue_timestamp_ms,
                    "expiry": r.expiry_timestamp_ms, "max": r.max_timestamp_ms}])


def _hmac(text: str) -> bytes:
    try:
        return base64.b64decode(text, validate=True)
    except ValueError:
        raise ToolError(f"Illegal base64 character in --hmac {text}") from None


def renew(tokens: Tokens, args: argparse.Namespace) -> None:
    print(f"Calling renew token operation with hmac :{args.hmac} , renew-time-period :{args.renew_time_period}")
    r = tokens.send(ApiKey.RenewDelegationToken, hmac=_hmac(args.hmac), renew_period_ms=args.renew_time_period)
    sys.stdout.write(f"Completed renew operation. New expiry date : {_date(r.expiry_timestamp_ms)}")


def expire(tokens: Tokens, args: argparse.Namespace) -> None:
    print(f"Calling expire token operation with hmac :{args.hmac} , expire-time-period :{args.expiry_time_period}")
    r = tokens.send(ApiKey.ExpireDelegationToken, hmac=_hmac(args.hmac), expiry_time_period_ms=args.expiry_time_period)
    sys.stdout.write(f"Completed expire operation. New expiry date : {_date(r.expiry_timestamp_ms)}")


def describe(tokens: Tokens, args: argparse.Namespace) -> None:
    owners = [principal(p) for p in args.owner_principal or []]
    if owners:
        print(f"Calling describe token operation for owners: [{', '.join(f'{k}:{n}' for k, n in owners)}]")
    else:
        print("Calling describe token operation for current user.")
    r = tokens.send(ApiKey.DescribeDelegationToken,
                    owners=[DescribeDelegationTokenOwner(principal_type=k, principal_name=n) for k, n in owners])
    found = []
    for t in r.tokens:
        owner = f"{t.principal_type}:{t.principal_name}"
        found.append({"token_id": t.token_id, "hmac": bytes(t.hmac), "owner": owner,
                      "requester": _requester(t.token_requester_principal_type, t.token_requester_principal_name,
                                              owner),
                      "renewers": [f"{p.principal_type}:{p.principal_name}" for p in t.renewers],
                      "issue": t.issue_timestamp, "expiry": t.expiry_timestamp, "max": t.max_timestamp})
    sys.stdout.write(f"Total number of tokens : {len(found)}")
    _print_tokens(found)


ACTIONS = {"create": create, "renew": renew, "expire": expire, "describe": describe}
# Kafka's checkInvalidArgs: options each action refuses.
INVALID = {"create": ("hmac", "renew_time_period", "expiry_time_period"),
           "renew": ("renewer_principal", "max_life_time_period", "expiry_time_period", "owner_principal"),
           "expire": ("renew", "max_life_time_period", "renew_time_period", "owner_principal"),
           "describe": ("renew_time_period", "max_life_time_period", "hmac", "expiry_time_period")}
REQUIRED = {"create": ("max_life_time_period",), "renew": ("hmac", "renew_time_period"),
            "expire": ("hmac", "expiry_time_period"), "describe": ()}


def build_parser() -> argparse.ArgumentParser:
    p = parser("delegation-tokens", "This tool helps to create, renew, expire, or describe delegation tokens.")
    p.add_argument("--bootstrap-server", help="REQUIRED: server(s) to use for bootstrapping.")
    p.add_argument("--command-config", help="REQUIRED: A property file containing configs to be passed to Admin "
                   "Client. Token management operations are allowed in secure mode only. This config file is "
                   "used to pass security related configs.")
    p.add_argument("--create", action="store_true", help="Create a new delegation token. Use --renewer-principal "
                   "option to pass renewer principals.")
    p.add_argument("--renew", action="store_true", help="Renew delegation token. Use --renew-time-period option "
                   "to set renew time period.")
    p.add_argument("--expire", action="store_true", help="Expire delegation token. Use --expiry-time-period option "
                   "to expire the token.")
    p.add_argument("--describe", action="store_true", help="Describe delegation tokens for the given principals. "
                   "Use --owner-principal to pass owner/renewer principals.")
    p.add_argument("--owner-principal", action="append", help="owner is a Kafka principal. They should be in "
                   "principalType:name format.")
    p.add_argument("--renewer-principal", action="append", help="renewer is a Kafka principal. They should be in "
                   "principalType:name format.")
    p.add_argument("--max-life-time-period", type=int, help="Max life period for the token in milliseconds. If "
                   "the value is -1, then token max life time will default to the server side config value of "
                   "(delegation.token.max.lifetime.ms).")
    p.add_argument("--renew-time-period", type=int, help="Renew time period in milliseconds. If the value is -1, "
                   "then the renew time period will default to the server side config value of "
                   "(delegation.token.expiry.time.ms).")
    p.add_argument("--expiry-time-period", type=int, help="Expiry time period in milliseconds. If the value is "
                   "-1, then the token will get invalidated immediately.")
    p.add_argument("--hmac", help="HMAC of the delegation token")
    return p


def _option(dest: str) -> str:
    return "[" + dest.replace("_", "-") + "]"


def main(argv: list[str] | None = None) -> int:
    p = build_parser()
    args = p.parse_args(argv)
    actions = [name for name in ACTIONS if getattr(args, name)]
    if len(actions) != 1:
        p.error("Command must include exactly one action: --create, --renew, --expire or --describe")
    action = actions[0]
    for dest in ("bootstrap_server", "command_config", *REQUIRED[action]):
        if getattr(args, dest) is None:
            p.error(f'Missing required argument "{_option(dest)}"')
    for dest in INVALID[action]:
        if getattr(args, dest) not in (None, False):
            p.error(f'Option "{_option(action)}" can\'t be used with option "{_option(dest)}"')
    try:
        from kafka import KafkaAdminClient

        config = client_config(load_properties(args.command_config), KafkaAdminClient.DEFAULT_CONFIG)
        timeout_ms = int(config.get("request_timeout_ms", 30_000))
        with wire.BrokerConnection.open(args.bootstrap_server, timeout_ms, config) as connection:
            ACTIONS[action](Tokens(connection), args)
    except ToolError as e:
        print(e, file=sys.stderr)
        return 1
    except OSError as e:
        print(f"Connection to {args.bootstrap_server} failed: {e}", file=sys.stderr)
        return 1
    return 0
