"""A small asyncio Kafka client for broker-to-broker traffic (controller requests,
replica fetches): one connection, requests pipelined, responses matched in order. It
speaks the inter-broker listener's security protocol: TLS, and SASL PLAIN or SCRAM with
the broker's own credentials (SaslHandshake v1, then SaslAuthenticate)."""

from __future__ import annotations

import asyncio
import itertools
import ssl
import struct
from dataclasses import dataclass

import scramp

from josefk.protocol.headers import decode_response, encode_request
from josefk.protocol.messages.codec import ApiMessage
from josefk.protocol.messages.generated.registry import ApiKey
from josefk.protocol.messages.generated.sasl_authenticate_request import SaslAuthenticateRequest
from josefk.protocol.messages.generated.sasl_authenticate_response import SaslAuthenticateResponse
from josefk.protocol.messages.generated.sasl_handshake_request import SaslHandshakeRequest
from josefk.protocol.messages.generated.sasl_handshake_response import SaslHandshakeResponse

SASL_HANDSHAKE_VERSION = 1
SASL_AUTHENTICATE_VERSION = 2


class AuthenticationFailed(ConnectionError):
    pass


@dataclass(frozen=True)
class ClientSecurity:
    """How a broker connects to the other brokers' inter-broker listener."""

    protocol: str = "PLAINTEXT"
    ssl_context: ssl.SSLContext | None = None
    mechanism: str | None = None
    username: str | None = None
    password: str | None = None


PLAINTEXT = ClientSecurity()


class BrokerConnection:
    def __init__(self, host: str, port: int, client_id: str, security: ClientSecurity = PLAINTEXT) -> None:
        self.host = host
        self.port = port
        self.security = security
        self.client_id = client_id.encode()
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._ids = itertools.count(1)
        self._lock = asyncio.Lock()

    async def _connect(self) -> None:
        tls = self.security.ssl_context
        self._reader, self._writer = await asyncio.wait_for(
            asyncio.open_connection(self.host, self.port, ssl=tls, server_hostname=self.host if tls else None),
            timeout=10)
        if self.security.mechanism is not None:
            await asyncio.wait_for(self._authenticate(), timeout=10)

    async def _authenticate(self) -> None:
        sec = self.security
        assert sec.mechanism is not None and sec.username is not None and sec.password is not None
        handshake = await self._round_trip(ApiKey.SaslHandshake, SASL_HANDSHAKE_VERSION,
                                           SaslHandshakeRequest(mechanism=sec.mechanism))
        assert isinstance(handshake, SaslHandshakeResponse)
        if handshake.error_code != 0:
            raise AuthenticationFailed(f"SASL mechanism {sec.mechanism} refused (error {handshake.error_code})")
        if sec.mechanism == "PLAIN":
            await self._sasl_token(b"\0" + sec.username.encode() + b"\0" + sec.password.encode())
            return
        try:
            client = scramp.ScramClient([sec.mechanism], sec.username, sec.password)
            client.set_server_first((await self._sasl_token(client.get_client_first().encode())).decode())
            client.set_server_final((await self._sasl_token(client.get_client_final().encode())).decode())
        except scramp.ScramException as e:
            raise AuthenticationFailed(f"SCRAM with {self.host}:{self.port} failed: {e}") from None

    async def _sasl_token(self, token: bytes) -> bytes:
        response = await self._round_trip(ApiKey.SaslAuthenticate, SASL_AUTHENTICATE_VERSION,
                                          SaslAuthenticateRequest(auth_bytes=token))
        assert isinstance(response, SaslAuthenticateResponse)
        if response.error_code != 0:
            raise AuthenticationFailed(response.error_message or f"SASL error {response.error_code}")
        return bytes(response.auth_bytes)

    async def request(self, api_key: int, version: int, body: ApiMessage, timeout: float = 30.0) -> ApiMessage:
        """Send one request and wait for its response (the generated response class of
        `api_key`; a records field is a view into the response's own bytes, which nothing
        reuses); a failure closes the connection."""
        async with self._lock:
            try:
                if self._writer is None:
                    await self._connect()
                return await asyncio.wait_for(self._round_trip(api_key, version, body), timeout)
            except (TimeoutError, OSError, asyncio.IncompleteReadError, ConnectionError):
                self.close()
                raise

    async def _round_trip(self, api_key: int, version: int, body: ApiMessage) -> ApiMessage:
        correlation_id = next(self._ids)
        # The streams of this round trip: close() may clear the attributes between two
        # reads, and closing the stream ends the read with IncompleteReadError.
        reader, writer = self._reader, self._writer
        assert writer is not None and reader is not None
        writer.write(encode_request(api_key, version, correlation_id, self.client_id, body))
        await writer.drain()
        size = struct.unpack(">i", await reader.readexactly(4))[0]
        got, response = decode_response(api_key, version, await reader.readexactly(size))
        if got != correlation_id:
            raise ConnectionError(f"correlation id {got} does not match request {correlation_id}")
        return response

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
        self._reader = self._writer = None


class BrokerConnections:
    """One BrokerConnection per broker id, for senders that talk to whichever broker leads a
    partition (transaction markers, transaction verification); reopened when the broker's
    address changed (it registered again elsewhere)."""

    def __init__(self, client_id: str, security: ClientSecurity = PLAINTEXT) -> None:
        self.client_id = client_id
        self.security = security
        self._connections: dict[int, BrokerConnection] = {}

    def get(self, broker_id: int, host: str, port: int) -> BrokerConnection:
        connection = self._connections.get(broker_id)
        if connection is None or (connection.host, connection.port) != (host, port):
            if connection is not None:
                connection.close()
            connection = self._connections[broker_id] = BrokerConnection(host, port, self.client_id, self.security)
        return connection

    def close(self) -> None:
        for connection in self._connections.values():
            connection.close()
        self._connections.clear()
