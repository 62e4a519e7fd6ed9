"""pytest plugin (entry point pytest11): the session-scoped `josefk_broker` fixture.

    def test_roundtrip(josefk_broker):
        producer = KafkaProducer(bootstrap_servers=josefk_broker)
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from josefk.testing import JosefkContainer


@pytest.fixture(scope="session")
def josefk_broker() -> Iterator[str]:
    """The bootstrap string (127.0.0.1:PORT) of a josefk broker shared by the test session."""
    with JosefkContainer() as kafka:
        yield kafka.get_bootstrap_server()
