"""Raw requests to a broker, for what kafka-python's public API does not give (the coordinator
of a group, the cluster-default config resource, delegation tokens). One connection, secured
as the tool's client config says: TLS, and SASL PLAIN or SCRAM through kafka-python's own
mechanisms. Built on josefk.protocol's message classes, the only part of josefk the tools use."""

from __future__ import annotations

import socket
import ssl
import struct
from types import TracebackType
from typing import Any

from josefk.cli.kafka_messages import request_class
from josefk.cli.tools.common import ToolError, unreachable
from josefk.protocol.apis import ApiKey
from josefk.protocol.headers import decode_response, encode_request

CLIENT_ID = b"josefk-tools"
SASL_HANDSHAKE_VERSION = 1  # v1: the mechanism's tokens travel in SaslAuthenticate
SASL_AUTHENTICATE_VERSION = 2


def _read_exact(sock: socket.socket, n: int) -> bytes:
    data = bytearray()
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            raise ConnectionError("connection closed by the broker")
        data += chunk
    return bytes(data)


def _tls_context(config: dict[str, Any]) -> ssl.SSLContext:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = bool(config.get("ssl_check_hostname", True))
    if config.get("ssl_cafile"):
        context.load_verify_locations(config["ssl_cafile"])
    else:
        context.load_default_certs()
    if config.get("ssl_certfile"):
        context.load_cert_chain(config["ssl_certfile"], config.get("ssl_keyfile"), config.get("ssl_password"))
    return context


class BrokerConnection:
    """One connection to one broker, authenticated before the first request."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.correlation_id = 0

    @classmethod
    def open(cls, bootstrap: str, timeout_ms: int, config: dict[str, Any] | None = None) -> BrokerConnection:
        """A connection to the first reachable bootstrap server, secured per `config`
        (kafka-python's keywords: security_protocol, sasl_mechanism, sasl_plain_*, ssl_*)."""
        config = config or {}
        protocol = str(config.get("security_protocol", "PLAINTEXT")).upper()
        for address in bootstrap.split(","):
            host, _, port = address.strip().rpartition(":")
            try:
                sock = socket.create_connection((host, int(port)), timeout=timeout_ms / 1000)
            except (OSError, ValueError):
                continue
            try:
                if protocol in ("SSL", "SASL_SSL"):
                    sock = _tls_context(config).wrap_socket(sock, server_hostname=host)
                connection = cls(sock)
                if protocol.startswith("SASL_"):
                    connection.authenticate(config)
            except BaseException:
                sock.close()
                raise
            return connection
        raise unreachable(bootstrap, timeout_ms)

    def send(self, api_key: int, version: int, **fields: Any) -> Any:
        """Send one request and decode its response."""
        self.correlation_id += 1
        self.sock.sendall(encode_request(api_key, version, self.correlation_id, CLIENT_ID,
                                         request_class(api_key)(**fields)))
        (size,) = struct.unpack(">i", _read_exact(self.sock, 4))
        return decode_response(api_key, version, _read_exact(self.sock, size))[1]

    def authenticate(self, config: dict[str, Any]) -> None:
        """SaslHandshake, then SaslAuthenticate until kafka-python's mechanism is done."""
        from kafka.net.sasl import get_sasl_mechanism

        name = str(config.get("sasl_mechanism") or "PLAIN")
        handshake = self.send(ApiKey.SaslHandshake, SASL_HANDSHAKE_VERSION, mechanism=name)
        if handshake.error_code:
            raise ToolError(f"Unsupported SASL mechanism {name}: the broker enables "
                            f"{', '.join(handshake.mechanisms or [])}")
        mechanism = get_sasl_mechanism(name)(**{**config, "sasl_mechanism": name})
        while not mechanism.is_done():
            response = self.send(ApiKey.SaslAuthenticate, SASL_AUTHENTICATE_VERSION,
                                 auth_bytes=mechanism.auth_bytes())
            if response.error_code:
                raise ToolError(response.error_message or "Authentication failed",
                                "org.apache.kafka.common.errors.SaslAuthenticationException")
            mechanism.receive(bytes(response.auth_bytes))
        if not mechanism.is_authenticated():
            raise ToolError("Authentication failed", "org.apache.kafka.common.errors.SaslAuthenticationException")

    def close(self) -> None:
        self.sock.close()

    def __enter__(self) -> BrokerConnection:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()


def request(bootstrap: str, api_key: int, version: int, timeout_ms: int, config: dict[str, Any] | None = None,
            **fields: Any) -> Any:
    """Send one request to the first reachable bootstrap server and decode its response."""
    try:
        with BrokerConnection.open(bootstrap, timeout_ms, config) as connection:
            return connection.send(api_key, version, **fields)
    except OSError as e:  # ConnectionError included
        raise ToolError(f"Connection to {bootstrap} failed: {e}") from e


def group_coordinator(bootstrap: str, group: str, timeout_ms: int,
                      config: dict[str, Any] | None = None) -> tuple[int, str, int]:
    """(node id, host, port) of the group's coordinator: FindCoordinator v2."""
    response = request(bootstrap, ApiKey.FindCoordinator, 2, timeout_ms, config, key=group, key_type=0)
    if response.error_code:
        raise ToolError(response.error_message or f"FindCoordinator failed with error {response.error_code}")
    return response.node_id, response.host, response.port
