"""A connection's mute state: when it may take the next request. Sans-IO.

Kafka's Processor mutes a channel from a request's receive until its response is sent, and
while a quota throttles its client (KafkaChannel.ChannelMuteState and its events). A josefk
connection follows the same table, with two states of its own: CLOSING (answer what is due,
then close: a failed authentication) and CLOSED. Throttles may overlap (a verification held
while a request quota throttles): the table sees the first start and the last end.

Reading the socket is a separate matter (Connection._update_reading): a connection reads
ahead of the request it may take, up to a limit, and stops for memory or write pressure.
"""

from __future__ import annotations

import enum


class MuteState(enum.Enum):
    # Members are singletons compared by identity: hash them so too, not by Enum's
    # Python-level hash of the name (the transition table is looked up on every request).
    __hash__ = object.__hash__

    NOT_MUTED = "takes the next request"
    MUTED_AND_RESPONSE_PENDING = "a request is in process"
    MUTED_AND_THROTTLED = "throttled"
    MUTED_AND_THROTTLED_AND_RESPONSE_PENDING = "throttled, a request in process"
    CLOSING = "answering what is due, then closing"
    CLOSED = "closed"


class MuteEvent(enum.Enum):
    __hash__ = object.__hash__

    REQUEST_RECEIVED = enum.auto()  # a request was taken for the handlers
    RESPONSE_SENT = enum.auto()  # the last response due was handed to the socket
    THROTTLE_STARTED = enum.auto()
    THROTTLE_ENDED = enum.auto()
    CLOSE_AFTER_RESPONSE = enum.auto()
    CLOSED = enum.auto()


_S, _E = MuteState, MuteEvent
TRANSITIONS: dict[tuple[MuteState, MuteEvent], MuteState] = {
    (_S.NOT_MUTED, _E.REQUEST_RECEIVED): _S.MUTED_AND_RESPONSE_PENDING,
    (_S.NOT_MUTED, _E.THROTTLE_STARTED): _S.MUTED_AND_THROTTLED,
    # A Produce behind acks 0/1 Produces is taken before their responses (Connection._next_request).
    (_S.MUTED_AND_RESPONSE_PENDING, _E.REQUEST_RECEIVED): _S.MUTED_AND_RESPONSE_PENDING,
    (_S.MUTED_AND_RESPONSE_PENDING, _E.RESPONSE_SENT): _S.NOT_MUTED,
    (_S.MUTED_AND_RESPONSE_PENDING, _E.THROTTLE_STARTED): _S.MUTED_AND_THROTTLED_AND_RESPONSE_PENDING,
    (_S.MUTED_AND_THROTTLED, _E.THROTTLE_ENDED): _S.NOT_MUTED,
    (_S.MUTED_AND_THROTTLED_AND_RESPONSE_PENDING, _E.RESPONSE_SENT): _S.MUTED_AND_THROTTLED,
    (_S.MUTED_AND_THROTTLED_AND_RESPONSE_PENDING, _E.THROTTLE_ENDED): _S.MUTED_AND_RESPONSE_PENDING,
    **{(state, _E.CLOSE_AFTER_RESPONSE): _S.CLOSING for state in _S if state is not _S.CLOSED},
    **{(state, _E.CLOSED): _S.CLOSED for state in _S},
    # Once closing or closed, what is still in flight changes nothing.
    **{(state, event): state for state in (_S.CLOSING, _S.CLOSED) for event in _E
       if event not in (_E.CLOSE_AFTER_RESPONSE, _E.CLOSED)},
    (_S.CLOSED, _E.CLOSE_AFTER_RESPONSE): _S.CLOSED,
}
_TAKES_REQUESTS = frozenset({_S.NOT_MUTED, _S.MUTED_AND_RESPONSE_PENDING})


class IllegalMuteTransition(RuntimeError):
    pass


class ChannelMute:
    """One connection's mute state, and how many throttles are on."""

    __slots__ = ("state", "throttles")

    def __init__(self) -> None:
        self.state = MuteState.NOT_MUTED
        self.throttles = 0

    def on(self, event: MuteEvent) -> None:
        following = TRANSITIONS.get((self.state, event))
        if following is None:
            raise IllegalMuteTransition(f"{event.name} in state {self.state.name}")
        self.state = following

    def throttle_started(self) -> None:
        self.throttles += 1
        if self.throttles == 1:
            self.on(MuteEvent.THROTTLE_STARTED)

    def throttle_ended(self) -> None:
        self.throttles -= 1
        if self.throttles == 0:
            self.on(MuteEvent.THROTTLE_ENDED)

    @property
    def throttled(self) -> bool:
        return self.throttles > 0

    @property
    def closed(self) -> bool:
        return self.state is MuteState.CLOSED

    @property
    def takes_requests(self) -> bool:
        """No throttle, not closing: a request may be taken (the one before it answered, or
        Connection's pipelining rule allows it)."""
        return self.state in _TAKES_REQUESTS
