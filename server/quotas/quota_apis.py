"""DescribeClientQuotas and AlterClientQuotas (Kafka 3.9 in ZooKeeper mode: KafkaApis with
ZkAdminManager), registered through KafkaApis' extra_handlers.

Describing needs DESCRIBE_CONFIGS on the cluster, altering ALTER_CONFIGS; the store is read
and written on the store executor. An altered quota reaches every broker (this one too)
through its /config/changes notification.
"""

from __future__ import annotations

import logging
from concurrent.futures import Executor

from josefk.protocol.acl import AclOperation
from josefk.protocol.authorizer import Authorizer
from josefk.protocol.errors import ErrorCode
from josefk.protocol.messages.generated.alter_client_quotas_request import AlterClientQuotasRequest, EntityData
from josefk.protocol.messages.generated.alter_client_quotas_response import AlterClientQuotasResponse
from josefk.protocol.messages.generated.alter_client_quotas_response import EntityData as AlteredEntity
from josefk.protocol.messages.generated.alter_client_quotas_response import EntryData as AlteredEntry
from josefk.protocol.messages.generated.describe_client_quotas_request import DescribeClientQuotasRequest
from josefk.protocol.messages.generated.describe_client_quotas_response import DescribeClientQuotasResponse, ValueData
from josefk.protocol.messages.generated.describe_client_quotas_response import EntityData as DescribedEntity
from josefk.protocol.messages.generated.describe_client_quotas_response import EntryData as DescribedEntry
from josefk.server.network.request_channel import Request
from josefk.server.quotas.quota_config import (
    CLIENT_ID,
    IP,
    USER,
    InvalidQuotaRequest,
    QuotaEntity,
    UnsupportedQuotaRequest,
    alter_entity,
    describe,
    parse_entity,
)
from josefk.server.store_apis import Handler, StoreApis, api
from josefk.utils.java_format import hash_map_order
from josefk.zk.coordination_store import CoordinationStore

log = logging.getLogger(__name__)
_CLUSTER_AUTHORIZATION_FAILED = "Cluster authorization failed."


def _entity_fields(entity: QuotaEntity) -> list[tuple[str, str | None]]:
    """A described entity's fields: user first (the Scala Map Kafka builds)."""
    fields: list[tuple[str, str | None]] = []
    if entity.has_user:
        fields.append((USER, entity.user))
    if entity.has_client_id:
        fields.append((CLIENT_ID, entity.client_id))
    if entity.has_ip:
        fields.append((IP, entity.ip))
    return fields


def _request_entity_fields(entries: list[EntityData]) -> list[tuple[str, str | None]]:
    """An altered entity's fields as Kafka echoes them: a java.util.HashMap of the request's
    (type, name) pairs, the last of a type winning, in the map's order."""
    found: dict[str, str | None] = {}
    for e in entries:
        found[e.entity_type] = e.entity_name
    return [(key, found[key]) for key in hash_map_order(list(found), len(entries))]


class QuotaApis(StoreApis):
    def __init__(self, store: CoordinationStore, authorizer: Authorizer, store_executor: Executor) -> None:
        super().__init__(authorizer, store_executor)
        self.store = store

    def handlers(self) -> dict[int, Handler]:
        return dict([
            api(DescribeClientQuotasRequest, self.handle_describe_client_quotas),
            api(AlterClientQuotasRequest, self.handle_alter_client_quotas),
        ])

    def handle_describe_client_quotas(self, request: Request[DescribeClientQuotasRequest]) -> None:
        req = request.body

        def error(code: ErrorCode, message: str) -> None:
            request.send_response(DescribeClientQuotasResponse(
                throttle_time_ms=0, error_code=code, error_message=message, entries=None))

        if not self._cluster_allowed(request, AclOperation.DESCRIBE_CONFIGS):
            error(ErrorCode.CLUSTER_AUTHORIZATION_FAILED, _CLUSTER_AUTHORIZATION_FAILED)
            return
        components = [(c.entity_type, c.match_type, c.match) for c in req.components]

        def work() -> tuple[ErrorCode, str, list]:
            try:
                return ErrorCode.NONE, "", describe(self.store, components, req.strict)
            except InvalidQuotaRequest as e:
                return ErrorCode.INVALID_REQUEST, str(e), []
            except UnsupportedQuotaRequest as e:
                return ErrorCode.UNSUPPORTED_VERSION, str(e), []

        def respond(result: tuple[ErrorCode, str, list]) -> None:
            code, message, found = result
            if code != ErrorCode.NONE:
                error(code, message)
                return
            entries = [DescribedEntry(
                entity=[DescribedEntity(entity_type=t, entity_name=n) for t, n in _entity_fields(entity)],
                values=[ValueData(key=k, value=v) for k, v in values.items()])
                for entity, values in found]
            # Kafka leaves error_message at its default, "", on success
            request.send_response(DescribeClientQuotasResponse(
                throttle_time_ms=0, error_code=0, error_message="", entries=entries))

        self._off_loop(request, work, respond)

    def handle_alter_client_quotas(self, request: Request[AlterClientQuotasRequest]) -> None:
        req = request.body

        def answer(results: list[tuple[list[tuple[str, str | None]], ErrorCode, str | None]]) -> None:
            request.send_response(AlterClientQuotasResponse(throttle_time_ms=0, entries=[AlteredEntry(
                error_code=code, error_message=message,
                entity=[AlteredEntity(entity_type=t, entity_name=n) for t, n in fields])
                for fields, code, message in results]))

        if not self._cluster_allowed(request, AclOperation.ALTER_CONFIGS):
            answer([(_request_entity_fields(e.entity), ErrorCode.CLUSTER_AUTHORIZATION_FAILED,
                     _CLUSTER_AUTHORIZATION_FAILED) for e in req.entries])
            return

        def work() -> list[tuple[list[tuple[str, str | None]], ErrorCode, str | None]]:
            results: list[tuple[list[tuple[str, str | None]], ErrorCode, str | None]] = []
            for entry in req.entries:
                fields = _request_entity_fields(entry.entity)
                try:
                    entity = parse_entity(fields)
                    alter_entity(self.store, entity, [(op.key, None if op.remove else op.value) for op in entry.ops],
                                 req.validate_only)
                    results.append((fields, ErrorCode.NONE, None))
                except InvalidQuotaRequest as e:
                    log.info("Error encountered while updating client quotas: %s", e)
                    results.append((fields, ErrorCode.INVALID_REQUEST, str(e)))
            return results

        self._off_loop(request, work, answer)
