"""The broker raises its soft open-file limit to the hard one at start, and logs both."""

from __future__ import annotations

import logging
import resource

import pytest

from josefk.cli import broker as broker_cli


def test_soft_open_file_limit_is_raised_to_the_hard_limit(caplog: pytest.LogCaptureFixture) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    lowered = min(soft, 256)
    resource.setrlimit(resource.RLIMIT_NOFILE, (lowered, hard))
    try:
        with caplog.at_level(logging.INFO, logger="kafka.server.KafkaServer"):
            broker_cli._raise_open_file_limit()
        assert resource.getrlimit(resource.RLIMIT_NOFILE) == (hard, hard)
        shown = "unlimited" if hard == resource.RLIM_INFINITY else str(hard)
        assert f"Open file limit (RLIMIT_NOFILE): {shown}, hard limit {shown}" in caplog.text
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
