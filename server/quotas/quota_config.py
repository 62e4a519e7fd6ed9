"""Client quota configs in ZooKeeper, as Kafka's AdminZkClient and ZkAdminManager keep them.

/config/users/<user>, /config/users/<user>/clients/<client-id> and /config/clients/<client-id>
(names sanitized, <default> for the default entity) hold {"version":1,"config":{...}}; a
change writes the node and a /config/changes notification naming users/<path> or
clients/<path>, which every broker's ConfigChangeListener hands to `apply_entity`.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from josefk.controller.coordination_store import CoordinationStore, NoNodeError
from josefk.controller.state import CONFIG_CHANGE_PREFIX
from josefk.server.quotas.client_quota_manager import DEFAULT, QuotaManagers, desanitize, sanitize
from josefk.utils.java_format import java_double

log = logging.getLogger(__name__)

CONFIG_USERS = "/config/users"
CONFIG_CLIENTS = "/config/clients"
PRODUCER_BYTE_RATE = "producer_byte_rate"
CONSUMER_BYTE_RATE = "consumer_byte_rate"
REQUEST_PERCENTAGE = "request_percentage"
CONTROLLER_MUTATION_RATE = "controller_mutation_rate"
# QuotaConfigs.userAndClientQuotaConfigs, with ConfigDef types: LONG keys must be whole numbers.
QUOTA_KEY_TYPES = {PRODUCER_BYTE_RATE: "LONG", CONSUMER_BYTE_RATE: "LONG", REQUEST_PERCENTAGE: "DOUBLE",
                   CONTROLLER_MUTATION_RATE: "DOUBLE"}
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
    """(user, client-id), each a name, None for the default entity, or absent (the flags)."""

    user: str | None = None
    client_id: str | None = None
    has_user: bool = False
    has_client_id: bool = False

    @property
    def path(self) -> str:
        """The entity's config path under /config: users/<u>[/clients/<c>] or clients/<c>."""
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


def read_entity(store: CoordinationStore, entity_type: str, entity_name: str) -> tuple[str, dict[str, str]]:
    """The config a change notification names (users/<...> or clients/<...>)."""
    path = f"{entity_type}/{entity_name}"
    return path, _read(store, f"/config/{path}")


def change_entity(store: CoordinationStore, path: str, config: dict[str, str]) -> None:
    """AdminZkClient.changeEntityConfig: write the node, then tell every broker."""
    store.create_or_set_json(f"/config/{path}", {"version": 1, "config": config})
    store.create_sequential(CONFIG_CHANGE_PREFIX, json.dumps(
        {"version": 2, "entity_path": path}, separators=(",", ":")).encode())


def parse_entity(entries: Iterable[tuple[str, str | None]]) -> QuotaEntity:
    """ZkAdminManager.parseAndSanitizeQuotaEntity for user and client-id entities."""
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
        raise InvalidQuotaRequest("josefk does not keep IP quotas (connection_creation_rate)")
    return QuotaEntity(found.get(USER), found.get(CLIENT_ID), USER in found, CLIENT_ID in found)


def alter_entity(store: CoordinationStore, entity: QuotaEntity, ops: Iterable[tuple[str, float | None]],
                 validate_only: bool) -> None:
    """ZkAdminManager.alterClientQuotas for one entity: remove (None) or set each key."""
    path = entity.path
    config = _read(store, f"/config/{path}")
    for key, value in ops:
        if value is None:
            config.pop(key, None)
            continue
        kind = QUOTA_KEY_TYPES.get(key)
        if kind is None:
            raise InvalidQuotaRequest(f"Invalid configuration key {key}")
        if kind == "DOUBLE":
            config[key] = java_double(value)
        else:
            whole = int(value + 1e-6)
            if abs(whole - value) > 1e-6:
                raise InvalidQuotaRequest(f"Configuration {key} must be a LONG value")
            config[key] = str(whole)
    if not validate_only:
        change_entity(store, path, config)


def describe(store: CoordinationStore, components: list[tuple[str, int, str | None]],
             strict: bool) -> list[tuple[QuotaEntity, dict[str, float]]]:
    """ZkAdminManager.describeClientQuotas for users and client-ids. A component is
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
    if IP in by_type:
        if len(by_type) > 1:
            raise InvalidQuotaRequest("Invalid entity filter component combination, IP filter component should "
                                      "not be used with user or clientId filter component.")
        return []
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
