"""A connection's mute state (server/network/channel_state.py): Kafka's ChannelMuteState table,
with josefk's pipelined Produces, overlapping throttles, and closing."""

from __future__ import annotations

import pytest

from josefk.server.network.channel_state import (
    TRANSITIONS,
    ChannelMute,
    IllegalMuteTransition,
    MuteEvent,
    MuteState,
)

pytestmark = pytest.mark.unit
S, E = MuteState, MuteEvent

# KafkaChannel.handleChannelMuteEvent, with Kafka's MUTED (muted on receive, before the
# REQUEST_RECEIVED event) folded into NOT_MUTED: josefk mutes and marks the request in one step.
KAFKA = {
    (S.NOT_MUTED, E.REQUEST_RECEIVED): S.MUTED_AND_RESPONSE_PENDING,
    (S.MUTED_AND_RESPONSE_PENDING, E.RESPONSE_SENT): S.NOT_MUTED,
    (S.MUTED_AND_THROTTLED_AND_RESPONSE_PENDING, E.RESPONSE_SENT): S.MUTED_AND_THROTTLED,
    (S.MUTED_AND_RESPONSE_PENDING, E.THROTTLE_STARTED): S.MUTED_AND_THROTTLED_AND_RESPONSE_PENDING,
    (S.MUTED_AND_THROTTLED, E.THROTTLE_ENDED): S.NOT_MUTED,
    (S.MUTED_AND_THROTTLED_AND_RESPONSE_PENDING, E.THROTTLE_ENDED): S.MUTED_AND_RESPONSE_PENDING,
}


def test_the_table_holds_kafkas_transitions() -> None:
    assert {key: TRANSITIONS[key] for key in KAFKA} == KAFKA


def test_closing_and_closed_absorb_whatever_is_still_in_flight() -> None:
    for event in E:
        assert TRANSITIONS[(S.CLOSED, event)] is S.CLOSED
        assert TRANSITIONS[(S.CLOSING, event)] is (S.CLOSED if event is E.CLOSED else S.CLOSING)
    assert all(TRANSITIONS[(state, E.CLOSED)] is S.CLOSED for state in S)


@pytest.mark.parametrize(("state", "event"), [
    (S.MUTED_AND_THROTTLED, E.REQUEST_RECEIVED),  # nothing is taken during a throttle
    (S.MUTED_AND_THROTTLED_AND_RESPONSE_PENDING, E.REQUEST_RECEIVED),
    (S.NOT_MUTED, E.RESPONSE_SENT),  # no response without a request
    (S.NOT_MUTED, E.THROTTLE_ENDED),
    (S.MUTED_AND_THROTTLED, E.THROTTLE_STARTED),  # the counter sends only the first start
])
def test_a_transition_outside_the_table_is_refused(state: MuteState, event: MuteEvent) -> None:
    mute = ChannelMute()
    mute.state = state
    with pytest.raises(IllegalMuteTransition, match=f"{event.name} in state {state.name}"):
        mute.on(event)


def test_a_throttle_during_a_request_outlasts_its_response() -> None:
    mute = ChannelMute()
    mute.on(E.REQUEST_RECEIVED)
    mute.throttle_started()
    mute.on(E.RESPONSE_SENT)
    assert mute.state is S.MUTED_AND_THROTTLED and not mute.takes_requests
    mute.throttle_ended()
    assert mute.state is S.NOT_MUTED and mute.takes_requests


def test_overlapping_throttles_unmute_at_the_last_end() -> None:
    mute = ChannelMute()
    mute.on(E.REQUEST_RECEIVED)
    mute.throttle_started()  # a transaction verification holds the producer's connection
    mute.throttle_started()  # and the request quota throttles it too
    mute.on(E.RESPONSE_SENT)
    mute.throttle_ended()
    assert mute.throttled and mute.state is S.MUTED_AND_THROTTLED
    mute.throttle_ended()
    assert not mute.throttled and mute.state is S.NOT_MUTED


def test_pipelined_produces_keep_the_response_pending() -> None:
    mute = ChannelMute()
    mute.on(E.REQUEST_RECEIVED)
    mute.on(E.REQUEST_RECEIVED)
    assert mute.state is S.MUTED_AND_RESPONSE_PENDING and mute.takes_requests
    mute.on(E.RESPONSE_SENT)
    assert mute.state is S.NOT_MUTED


def test_closing_takes_nothing_and_then_closes() -> None:
    mute = ChannelMute()
    mute.on(E.REQUEST_RECEIVED)
    mute.on(E.CLOSE_AFTER_RESPONSE)
    assert not mute.takes_requests and not mute.closed
    mute.on(E.RESPONSE_SENT)
    assert mute.state is S.CLOSING
    mute.on(E.CLOSED)
    assert mute.closed
