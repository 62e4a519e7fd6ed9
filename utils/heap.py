"""Keeping CPython's cycle collector off the broker's long-lived heap.

A full collection walks every tracked object, and most of a broker's are its partitions'
(logs, segments, indexes, producer state): at 10,000 partitions one took about a quarter
of a second, and the objects a 10,000-partition Fetch keeps alive until its response is
encoded set one off every few fetches (half the broker's CPU of such a fetch). Connections
do the same: with 5,000 open, each sending a request a second, full collections of their
objects took 40-70 ms every few seconds, the broker's p99. Start-up freezes the heap it
built (josefk/cli/broker.py); a broker that takes on many partitions or connections later
freezes again, after a full collection so that no garbage is frozen with them.
"""

from __future__ import annotations

import gc
from collections.abc import Callable


def refreeze() -> None:
    """Collect everything, frozen or not (a deleted partition's cycles go too), then
    freeze what is left."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()


class HeapFreezer:
    """Refreezes once a count (partitions, connections) has grown by `min_growth` and by a
    quarter since the last time, so reaching N costs O(log N) full collections."""

    def __init__(self, min_growth: int = 1000, freeze: Callable[[], None] = refreeze) -> None:
        self.min_growth = min_growth
        self._freeze = freeze
        self._frozen_at = 0

    def grown_to(self, count: int) -> bool:
        """Tell the current partition count; True if that froze the heap."""
        self._frozen_at = min(self._frozen_at, count)  # after deletions, growth counts from here
        if count - self._frozen_at < max(self.min_growth, self._frozen_at // 4):
            return False
        self._frozen_at = count
        self._freeze()
        return True
