"""Client quota configs in ZooKeeper, as Kafka's AdminZkClient and ZkAdminManager keep them.

/config/users/<user>, /config/users/<user>/clients/<client-id>, /config/clients/<client-id>
and /config/ips/<ip> (names sanitized, <default> for the default entity) hold
{"version":1,"config":{...}}; a change writes the node and a /config/changes notification
naming users/<path>, clients/<path> or ips/<ip>, which every broker's ConfigChangeListener
hands to `apply_entity` (user and client-id quotas) or `ip_quota` (KIP-612's
connection_creation_rate, for ConnectionQuotas).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from josefk.server.network.connection_quotas import resolve_host
from josefk.server.quotas.client_quota_manager import DEFAULT, QuotaManagers, desanitize, sanitize
from josefk.utils.java_format import java_double
from josefk.zk.config_changes import notify_config_change
from josefk.zk.coordination_store import CoordinationStore, NoNodeError

log = logging.getLogger(__name__)

CONFIG_USERS = "/config/users"
CONFIG_CLIENTS = "/config/clients"
CONFIG_IPS = "/config/ips"
PRODUCER_BYTE_RATE = "producer_byte_rate"
CONSUMER_BYTE_RATE = "consumer_byte_rate"
REQUEST_PERCENTAGE = "request_percentage"
CONTROLLER_MUTATION_RATE = "controller_mutation_rate"
# QuotaConfigs.userAndClientQuotaConfigs, with ConfigDef types: LONG keys must be whole numbers.
QUOTA_KEY_TYPES = {PRODUCER_BYTE_RATE: "LONG", CONSUMER_BYTE_RATE: "LONG", REQUEST_PERCENTAGE: "DOUBLE",
                   CONTROLLER_MUTATION_RATE: "DOUBLE"}
CONNECTION_CREATION_RATE = "connection_creation_rate"
IP_KEY_TYPES = {CONNECTION_CREATION_RATE: "INT"}  # QuotaConfigs.ipConfigs
# ClientQuotaEntity's entity types.
USER = "user"
CLIENT_ID = "client-id"
IP = "ip"


class InvalidQuotaRequest(Exception):
    """Kafka's InvalidRequestException from the quota APIs (INVALID_REQUEST with this message)."""


class UnsupportedQuotaRequest(Exception):
    """Kafka's UnsupportedVersionException from DescribeClientQuotas (a custom entity type)."""


@dataclass(frozen=True)
class QuotaEntity:
    """(user, client-id) or an ip, each a name, None for the default entity, or absent (the flags)."""

    user: str | None = None
    client_id: str | None = None
    has_user: bool = False
    has_client_id: bool = False
    ip: str | None = None
    has_ip: bool = False

    @property
    def path(self) -> str:
        """The entity's config path under /config: users/<u>[/clients/<c>], clients/<c> or ips/<ip>."""
        if self.has_ip:
            return f"ips/{_sanitized(self.ip)}"
        if self.has_user:
            user = _sanitized(self.user)
            return f"users/{user}/clients/{_sanitized(self.client_id)}" if self.has_client_id else f"users/{user}"
        return f"clients/{_sanitized(self.client_id)}"


def _sanitized(name: str | None) -> str:
    return DEFAULT if name is None else sanitize(name)


def _desanitized(name: str) -> str | None:
    return None if name == DEFAULT else desanitize(name)


def _read(store: CoordinationStore, path: str) -> dict[str, str]:
    """An entity's config; none for a missing node or one made empty as a parent
    (/config/users/<user> when only /config/users/<user>/clients/<id> was written)."""
    found = store.get(path)
    if not found or not found[0]:
        return {}
    return dict(json.loads(found[0]).get("config", {}))


def _children(store: CoordinationStore, path: str) -> list[str]:
    try:
        return store.children(path)
    except NoNodeError:
        return []


def all_entity_configs(store: CoordinationStore) -> Iterator[tuple[str, dict[str, str]]]:
    """Every user, client and user/client config, in that order (ZkAdminManager's): (entity path, config)."""
    users = _children(store, CONFIG_USERS)
    for user in users:
        yield f"users/{user}", _read(store, f"{CONFIG_USERS}/{user}")
    for client in _children(store, CONFIG_CLIENTS):
        yield f"clients/{client}", _read(store, f"{CONFIG_CLIENTS}/{client}")
    for user in users:
        for client in _children(store, f"{CONFIG_USERS}/{user}/clients"):
            yield f"users/{user}/clients/{client}", _read(store, f"{CONFIG_USERS}/{user}/clients/{client}")


def _entity_of(path: str) -> tuple[str | None, str | None]:
    """A config path's (sanitized user, sanitized client-id) as the quota managers key them."""
    parts = path.split("/")
    if parts[0] == "clients" and len(parts) == 2:
        return None, parts[1]
    if parts[0] == "users" and len(parts) == 2:
        return parts[1], None
    if parts[0] == "users" and len(parts) == 4 and parts[2] == "clients":
        return parts[1], parts[3]
    raise ValueError(f"not a client quota entity path: {path}")


def apply_entity(managers: QuotaManagers, path: str, config: dict[str, str]) -> None:
    """Kafka's QuotaConfigHandler.updateQuotaConfig: set or remove each quota of the entity."""
    user, client = _entity_of(path)

    def value(key: str, whole: bool) -> float | None:
        text = config.get(key)
        if text is None:
            return None
        return float(int(float(text))) if whole else float(text)

    managers.produce.update_quota(user, client, value(PRODUCER_BYTE_RATE, True))
    managers.fetch.update_quota(user, client, value(CONSUMER_BYTE_RATE, True))
    managers.request.update_quota(user, client, value(REQUEST_PERCENTAGE, False))
    managers.controller_mutation.update_quota(user, client, value(CONTROLLER_MUTATION_RATE, False))


def all_ip_configs(store: CoordinationStore) -> Iterator[tuple[str, dict[str, str]]]:
    """Every ip entity's config: (sanitized name, config)."""
    for name in _children(store, CONFIG_IPS):
        yield name, _read(store, f"{CONFIG_IPS}/{name}")


def ip_quota(name: str, config: dict[str, str]) -> tuple[str | None, int | None]:
    """Kafka's IpConfigHandler: the address an ip entity names (None for the default; a host
    name resolves, which may block) and its connection_creation_rate (None when unset).
    Raises ValueError for a name that does not resolve."""
    rate = config.get(CONNECTION_CREATION_RATE)
    if name == DEFAULT:
        return None, None if rate is None else int(rate)
    try:
        address = resolve_host(name)
    except (OSError, UnicodeError):
        raise ValueError(f"Unable to resolve address {name}") from None
    return address, None if rate is None else int(rate)


def read_entity(store: CoordinationStore, entity_type: str, entity_name: str) -> tuple[str, dict[str, str]]:
    """The config a change notification names (users/<...> or clients/<...>)."""
    path = f"{entity_type}/{entity_name}"
    return path, _read(store, f"/config/{path}")


def change_entity(store: CoordinationStore, path: str, config: dict[str, str]) -> None:
    """AdminZkClient.changeEntityConfig: write the node, then tell every broker."""
    store.create_or_set_json(f"/config/{path}", {"version": 1, "config": config})
    notify_config_change(store, path)


def parse_entity(entries: Iterable[tuple[str, str | None]]) -> QuotaEntity:
    """ZkAdminManager.parseAndSanitizeQuotaEntity, then alterClientQuotas' checks of the combination.
    An ip must be an address or a name that resolves (it may block: call off the loop)."""
    entries = list(entries)
    if not entries:
        raise InvalidQuotaRequest("Invalid empty client quota entity")
    found: dict[str, str | None] = {}
    for entity_type, name in entries:
        if entity_type not in (USER, CLIENT_ID, IP):
            raise InvalidQuotaRequest(f"Unhandled client quota entity type: {entity_type}")
        if name is not None and name == "":
            raise InvalidQuotaRequest(f"Empty {entity_type} not supported")
        found[entity_type] = name
    if IP in found:
        if len(found) > 1:
            raise InvalidQuotaRequest("Invalid quota entity combination, IP entity should not be used with "
                                      "user/client ID entity.")
        ip = _sanitized(found[IP])
        if not valid_ip_entity(ip):
            raise InvalidQuotaRequest(f"{ip} is not a valid IP or resolvable host.")
        return QuotaEntity(ip=found[IP], has_ip=True)
    return QuotaEntity(found.get(USER), found.get(CLIENT_ID), USER in found, CLIENT_ID in found)


def valid_ip_entity(sanitized_ip: str) -> bool:
    """DynamicConfig.Ip.isValidIpEntity, given the sanitized name as Kafka gives it: <default>,
    or what InetAddress.getByName takes (so an IPv6 address, sanitized to %3A..., is refused
    as in Kafka's ZooKeeper mode)."""
    if sanitized_ip == DEFAULT:
        return True
    try:
        resolve_host(sanitized_ip)
    except (OSError, UnicodeError):
        return False
    return True


def alter_entity(store: CoordinationStore, entity: QuotaEntity, ops: Iterable[tuple[str, float | None]],
                 validate_only: bool) -> None:
    """ZkAdminManager.alterClientQuotas for one entity: remove (None) or set each key."""
    path = entity.path
    key_types = IP_KEY_TYPES if entity.has_ip else QUOTA_KEY_TYPES
    config = _read(store, f"/config/{path}")
    for key, value in ops:
        if value is None:
            config.pop(key, None)
            continue
        kind = key_types.get(key)
        if kind is None:
            raise InvalidQuotaRequest(f"Invalid configuration key {key}")
        if kind == "DOUBLE":
            config[key] = java_double(value)
        else:
            whole = _java_long(value + 1e-6) if kind == "LONG" else _java_int(value + 1e-6)
            if abs(whole - value) > 1e-6:
                raise InvalidQuotaRequest(f"Configuration {key} must be a {kind} value")
            config[key] = str(whole)
    if not validate_only:
        change_entity(store, path, config)


def _java_long(x: float) -> int:
    return _java_cast(x, 64)


def _java_int(x: float) -> int:
    return _java_cast(x, 32)


def _java_cast(x: float, bits: int) -> int:
    """Java's (long) or (int) cast of a double: toward zero, saturating, NaN to 0."""
    top = 2 ** (bits - 1)
    if x != x:
        return 0
    if x >= top - 1:
        return top - 1
    if x <= -top:
        return -top
    return int(x)


def describe(store: CoordinationStore, components: list[tuple[str, int, str | None]],
             strict: bool) -> list[tuple[QuotaEntity, dict[str, float]]]:
    """ZkAdminManager.describeClientQuotas. A component is
    (entity type, match type, match): 0 exact name, 1 the default, 2 any specified."""
    by_type: dict[str, tuple[int, str | None]] = {}
    for entity_type, match_type, match in components:
        if entity_type in by_type:
            name = "client" if entity_type == CLIENT_ID else entity_type
            raise InvalidQuotaRequest(f"Duplicate {name} filter component entity type")
        if entity_type == "":
            raise InvalidQuotaRequest("Unexpected empty filter component entity type")
        if entity_type not in (USER, CLIENT_ID, IP):
            raise UnsupportedQuotaRequest(f"Custom entity type '{entity_type}' not supported")
        by_type[entity_type] = (match_type, match)
    if IP in by_type and len(by_type) > 1:
        raise InvalidQuotaRequest("Invalid entity filter component combination, IP filter component should "
                                  "not be used with user or clientId filter component.")
    found = [] if IP in by_type else _describe_users_and_clients(store, by_type, strict)
    if USER not in by_type and CLIENT_ID not in by_type:
        found += _describe_ips(store, by_type.get(IP), strict)
    return found


def _describe_ips(store: CoordinationStore, component: tuple[int, str | None] | None,
                  strict: bool) -> list[tuple[QuotaEntity, dict[str, float]]]:
    """ZkAdminManager.handleDescribeIpQuotas: one ip (or the default), or every ip entity."""
    if component is not None and component[0] in (0, 1):
        names = [DEFAULT if component[0] == 1 else sanitize(component[1] or "")]
    elif component is not None or not strict:
        names = _children(store, CONFIG_IPS)
    else:
        names = []
    found = []
    for name in names:
        quota = {k: float(v) for k, v in _read(store, f"{CONFIG_IPS}/{name}").items() if k in IP_KEY_TYPES}
        if quota:
            found.append((QuotaEntity(ip=_desanitized(name), has_ip=True), quota))
    return found


def _describe_users_and_clients(store: CoordinationStore, by_type: dict[str, tuple[int, str | None]],
                                strict: bool) -> list[tuple[QuotaEntity, dict[str, float]]]:
    """ZkAdminManager.handleDescribeClientQuotas."""
    if not by_type and strict:
        return []

    def matches(entity_type: str, name: str | None, present: bool) -> bool:
        component = by_type.get(entity_type)
        if component is None:
            return not present or not strict
        match_type, match = component
        if match_type == 0:
            return present and name == match
        if match_type == 1:
            return present and name is None
        return present

    found = []
    for path, config in all_entity_configs(store):
        quota = {k: float(v) for k, v in config.items() if k in QUOTA_KEY_TYPES}
        if not quota:
            continue
        user, client = _entity_of(path)
        entity = QuotaEntity(None if user is None else _desanitized(user),
                             None if client is None else _desanitized(client), user is not None, client is not None)
        if matches(USER, entity.user, entity.has_user) and matches(CLIENT_ID, entity.client_id, entity.has_client_id):
            found.append((entity, quota))
    return found
