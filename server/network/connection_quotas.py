"""ConnectionQuotas: how many connections the broker holds, and how fast it takes them.

Kafka's SocketServer.ConnectionQuotas, one for all listeners, consulted by each Acceptor:

* max.connections (broker-wide) and listener.name.<l>.max.connections: when either is
  reached the Acceptor does not refuse the connection it took; it waits, holding it, until
  a connection closes or the limit is raised, so clients queue in the listen backlog instead
  of reconnecting in a storm. With more than one listener the inter-broker listener is held
  only by its own limit, never by the broker-wide one, so brokers can always reach each
  other; when its connections push the total over max.connections, the other listeners'
  least recently active connections are closed to make room.
* max.connections.per.ip and max.connections.per.ip.overrides: a connection over its
  address's limit is closed at once (Kafka's TooManyConnectionsException), with an INFO line.
* connection_creation_rate per ip entity (KIP-612, /config/ips, set with AlterClientQuotas):
  a connection over its address's rate is not refused at once, nor handed to a Processor:
  the Acceptor holds it unread for the throttle time, then closes it, so a client in a
  reconnect loop is slowed down. It is taken back from the listener and broker rates.
* max.connection.creation.rate, broker-wide and per listener: each accepted connection is
  recorded in a rate over quota.window.num windows of quota.window.size.seconds (Kafka's
  Rate); over the limit the Acceptor waits as long as it takes to bring the rate back to it,
  at most one window (QuotaUtils.boundedThrottleTime). The inter-broker listener is exempt
  from the broker-wide rate, as from the broker-wide count.
"""

from __future__ import annotations

import ipaddress
import logging
import socket
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from josefk.utils.time import Time

log = logging.getLogger(__name__)

UNLIMITED = 2**31 - 1  # Kafka's Int.MaxValue defaults (also QuotaConfigs.IP_CONNECTION_RATE_DEFAULT)
IP_SENSOR_EXPIRATION_MS = 3600 * 1000  # ConnectionQuotas.InactiveSensorExpirationTimeSeconds
# Kafka's quota.window.num and quota.window.size.seconds defaults (keys josefk does not read).
QUOTA_WINDOWS = 11
QUOTA_WINDOW_MS = 1000


@dataclass(frozen=True)
class ConnectionLimits:
    """The connection limits of a broker's config (static and dynamic), by Kafka's keys."""

    max_connections: int = UNLIMITED
    max_connections_per_ip: int = UNLIMITED
    per_ip_overrides: Mapping[str, int] = field(default_factory=dict)  # host as configured -> limit
    max_connection_creation_rate: int = UNLIMITED
    listener_max_connections: Mapping[str, int] = field(default_factory=dict)  # listener name -> limit
    listener_max_creation_rate: Mapping[str, int] = field(default_factory=dict)


class TooManyConnections(Exception):
    def __init__(self, ip: str, count: int) -> None:
        super().__init__(f"Too many connections from {ip} (maximum = {count})")
        self.ip = ip
        self.count = count


class ConnectionThrottled(Exception):
    """Kafka's ConnectionThrottledException: the address is over its connection_creation_rate;
    the acceptor holds the connection unread and closes it when the throttle time is over."""

    def __init__(self, ip: str, start_ms: int, throttle_ms: int) -> None:
        super().__init__(f"{ip} throttled for {throttle_ms}")
        self.ip = ip
        self.start_ms = start_ms
        self.throttle_ms = throttle_ms


def normalize_ip(address: str) -> str:
    """One spelling per address, so an override matches the peer address the socket reports."""
    try:
        return str(ipaddress.ip_address(address))
    except ValueError:
        return address


def resolve_host(host: str) -> str:
    """Kafka's InetAddress.getByName: an address as it is, a name through the resolver (which
    may block: never on the event loop). Raises OSError or UnicodeError for a name that does
    not resolve (Java's UnknownHostException)."""
    try:
        return str(ipaddress.ip_address(host))
    except ValueError:
        pass
    found = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    # IPv4 first, as the JVM prefers it (java.net.preferIPv6Addresses=false)
    found.sort(key=lambda info: info[0] != socket.AF_INET)
    return normalize_ip(str(found[0][4][0]))


def _resolve(host: str) -> str | None:
    try:
        return resolve_host(host)
    except (OSError, UnicodeError) as e:
        log.warning("max.connections.per.ip.overrides: cannot resolve %s (%s); its override is ignored", host, e)
        return None


class Rate:
    """Kafka's Rate on a SampledStat: events per second over the last `samples` windows of
    `window_ms`, measured over at least samples - 1 full windows (so a burst right after a
    quiet spell is not read as an enormous rate)."""

    def __init__(self, samples: int = QUOTA_WINDOWS, window_ms: int = QUOTA_WINDOW_MS) -> None:
        self.samples = samples
        self.window_ms = window_ms
        self._windows: deque[list[int]] = deque(maxlen=samples)  # [window start ms, events]

    def _purge(self, now_ms: int) -> None:
        expired = now_ms - self.samples * self.window_ms
        while self._windows and self._windows[0][0] <= expired:
            self._windows.popleft()

    def record(self, now_ms: int, value: int = 1) -> None:
        """Count `value` events (-1 takes back one a quota refused)."""
        self._purge(now_ms)
        if not self._windows or now_ms - self._windows[-1][0] >= self.window_ms:
            self._windows.append([now_ms, 0])
        self._windows[-1][1] += value

    def window_size_ms(self, now_ms: int) -> int:
        self._purge(now_ms)
        elapsed = now_ms - self._windows[0][0] if self._windows else 0
        full, at_least = elapsed // self.window_ms, self.samples - 1
        return elapsed + (at_least - full) * self.window_ms if full < at_least else elapsed

    def measure(self, now_ms: int) -> float:
        size = self.window_size_ms(now_ms)
        return sum(events for _start, events in self._windows) * 1000 / size

    def throttle_ms(self, bound: int, now_ms: int) -> int:
        """Record one event; the delay that brings the rate back to `bound` (Kafka's
        QuotaUtils.boundedThrottleTime, capped at one window), 0 within it."""
        self.record(now_ms)
        value = self.measure(now_ms)
        if value <= bound:
            return 0
        return min(round((value - bound) / bound * self.window_size_ms(now_ms)), self.window_ms)


class ConnectionQuotas:
    """Connection counts by address and listener, checked against ConnectionLimits."""

    def __init__(self, limits: ConnectionLimits, listeners: Iterable[str], inter_broker_listener: str,
                 time: Time) -> None:
        self.time = time
        self.inter_broker_listener = inter_broker_listener
        self.total = 0
        self._by_ip: dict[str, int] = {}
        self._by_listener = dict.fromkeys(listeners, 0)
        self._broker_rate = Rate()
        self._listener_rates = {name: Rate() for name in self._by_listener}
        self._waiters: list[Callable[[], None]] = []
        self._closers: dict[str, Callable[[int], int]] = {}
        # KIP-612: connection_creation_rate per ip entity, from /config/ips
        self._default_ip_rate = UNLIMITED
        self._ip_rates: dict[str, int] = {}
        self._ip_sensors: dict[str, tuple[Rate, list[int]]] = {}  # address -> (rate, [last record ms])
        self._last_ip_purge_ms = 0
        self.reconfigure(limits)

    def reconfigure(self, limits: ConnectionLimits) -> None:
        """New limits (a dynamic config change): waiting acceptors look again, and connections
        over a lowered max.connections are closed."""
        self.limits = limits
        overrides = {}
        for host, count in limits.per_ip_overrides.items():
            address = _resolve(host)
            if address is not None:
                overrides[address] = count
        self._ip_overrides = overrides
        self._wake()
        self._close_excess()

    def add_closer(self, listener: str, close_least_active: Callable[[int], int]) -> None:
        """How to close up to n of `listener`'s least recently active connections (it returns
        how many it closed, each released at once); used when the total is over
        max.connections (Kafka's Processor.closeExcessConnections)."""
        self._closers[listener] = close_least_active

    def count(self, ip: str) -> int:
        return self._by_ip.get(normalize_ip(ip), 0)

    def listener_count(self, listener: str) -> int:
        return self._by_listener.get(listener, 0)

    def max_for_ip(self, ip: str) -> int:
        return self._ip_overrides.get(ip, self.limits.max_connections_per_ip)

    def protected(self, listener: str) -> bool:
        """The inter-broker listener, when there are others: exempt from the broker-wide limits."""
        return listener == self.inter_broker_listener and len(self._by_listener) > 1

    def slot_available(self, listener: str) -> bool:
        if self._by_listener.get(listener, 0) >= self.limits.listener_max_connections.get(listener, UNLIMITED):
            return False
        return self.protected(listener) or self.total < self.limits.max_connections

    def max_connections_exceeded(self, listener: str) -> bool:
        return self.total > self.limits.max_connections and not self.protected(listener)

    def record_connection(self, listener: str) -> int:
        """Count a new connection in the creation rates; how long (ms) the acceptor must wait
        before taking it: the longer of the broker-wide and the listener's delay."""
        now = self.time.milliseconds()
        throttle = 0
        if not self.protected(listener):
            throttle = self._broker_rate.throttle_ms(self.limits.max_connection_creation_rate, now)
        rate = self._listener_rates.get(listener)
        if rate is not None:
            bound = self.limits.listener_max_creation_rate.get(listener, UNLIMITED)
            throttle = max(throttle, rate.throttle_ms(bound, now))
        return throttle

    def update_ip_connection_rate(self, ip: str | None, rate: int | None) -> None:
        """ConnectionQuotas.updateIpConnectionRateQuota: an ip entity's connection_creation_rate
        (ip None: the default entity; rate None: removed, back to the default)."""
        if ip is None:
            self._default_ip_rate = UNLIMITED if rate is None else rate
            log.info("Updated default max IP connection rate to %d", self._default_ip_rate)
            return
        ip = normalize_ip(ip)
        if rate is None:
            log.info("Removing max connection rate override for %s", ip)
            self._ip_rates.pop(ip, None)
        else:
            log.info("Updating max connection rate override for %s to %d", ip, rate)
            self._ip_rates[ip] = rate

    def connection_rate_for_ip(self, ip: str) -> int:
        return self._ip_rates.get(normalize_ip(ip), self._default_ip_rate)

    def _record_ip_connection(self, listener: str, ip: str) -> None:
        """recordIpConnectionMaybeThrottle: over the address's rate the connection is taken back
        from the ip, listener and broker rates (it is not accepted) and ConnectionThrottled raised."""
        bound = self.connection_rate_for_ip(ip)
        if bound == UNLIMITED:
            return
        now = self.time.milliseconds()
        rate = self._ip_sensor(ip, now)
        throttle_ms = rate.throttle_ms(bound, now)
        if throttle_ms <= 0:
            return
        rate.record(now, -1)
        if not self.protected(listener):
            self._broker_rate.record(now, -1)
        listener_rate = self._listener_rates.get(listener)
        if listener_rate is not None:
            listener_rate.record(now, -1)
        raise ConnectionThrottled(ip, now, throttle_ms)

    def _ip_sensor(self, ip: str, now_ms: int) -> Rate:
        """The address's connection rate; sensors idle for an hour are dropped, as Kafka's expire."""
        found = self._ip_sensors.get(ip)
        if found is None:
            if now_ms - self._last_ip_purge_ms >= 60_000:
                self._last_ip_purge_ms = now_ms
                for address, (_rate, last) in list(self._ip_sensors.items()):
                    if now_ms - last[0] >= IP_SENSOR_EXPIRATION_MS:
                        del self._ip_sensors[address]
            found = self._ip_sensors[ip] = (Rate(), [now_ms])
        found[1][0] = now_ms
        return found[0]

    def admit(self, listener: str, ip: str) -> None:
        """Count a connection the acceptor may hand on (a slot is available); raise
        ConnectionThrottled if its address is over its connection_creation_rate, or
        TooManyConnections if it is at its connection limit, counting nothing."""
        ip = normalize_ip(ip)
        self._record_ip_connection(listener, ip)
        count = self._by_ip.get(ip, 0)
        limit = self.max_for_ip(ip)
        if count >= limit:
            raise TooManyConnections(ip, limit)
        self._by_ip[ip] = count + 1
        self.total += 1
        if listener in self._by_listener:
            self._by_listener[listener] += 1
        if self.protected(listener):
            self._close_excess()

    def release(self, listener: str, ip: str) -> None:
        """A counted connection closed: wake the acceptors waiting for a slot."""
        ip = normalize_ip(ip)
        count = self._by_ip.get(ip, 0)
        if count <= 0:
            log.error("Attempted to decrease connection count for address with no connections, address: %s", ip)
            return
        if count == 1:
            del self._by_ip[ip]
        else:
            self._by_ip[ip] = count - 1
        self.total -= 1
        if self._by_listener.get(listener, 0) > 0:
            self._by_listener[listener] -= 1
        self._wake()

    def when_changed(self, callback: Callable[[], None]) -> None:
        """Call `callback` once, at the next release or reconfiguration (Kafka's notifyAll)."""
        self._waiters.append(callback)

    def _wake(self) -> None:
        waiters, self._waiters = self._waiters, []
        for callback in waiters:
            callback()

    def _close_excess(self) -> None:
        for listener, close_least_active in self._closers.items():
            if self.max_connections_exceeded(listener):
                close_least_active(self.total - self.limits.max_connections)
