"""Wires the group coordinator into a broker (being built; see issue 4)."""

from __future__ import annotations

from typing import Any


def install(server: Any) -> None:
    """Register the group APIs on server.apis and start the coordinator."""
