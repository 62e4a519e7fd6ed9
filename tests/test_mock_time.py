"""MockTime and MockScheduler, which the fake-time tests rely on: tasks run in due order,
each at its own due time, including tasks armed by tasks during the same sleep."""

from __future__ import annotations

from josefk.utils.mock_time import MockScheduler, MockTime


def test_sleep_runs_due_tasks_in_order_each_at_its_due_time() -> None:
    time = MockTime()
    scheduler = MockScheduler(time)
    start, wall = time.hi_res_clock_ms(), time.milliseconds()
    ran: list[tuple[str, int]] = []

    def record(name: str) -> None:
        ran.append((name, time.hi_res_clock_ms() - start))

    def rearm() -> None:
        record("rearm")
        scheduler.schedule(30, record, "armed by a task")

    scheduler.schedule(50, record, "b")
    scheduler.schedule(10, rearm)
    scheduler.schedule(50, record, "c")  # same due time: in the order scheduled
    scheduler.schedule(20, record, "cancelled").cancel()
    scheduler.schedule(101, record, "later")
    time.sleep(100)
    assert ran == [("rearm", 10), ("armed by a task", 40), ("b", 50), ("c", 50)]
    assert (time.hi_res_clock_ms() - start, time.milliseconds() - wall) == (100, 100)
    assert scheduler.pending == 1
    time.sleep(1)
    assert ran[-1] == ("later", 101) and scheduler.pending == 0


def test_call_soon_runs_on_the_next_sleep_even_of_zero() -> None:
    time = MockTime()
    scheduler = MockScheduler(time)
    ran: list[int] = []
    scheduler.call_soon(ran.append, 1)
    assert ran == []
    time.sleep(0)
    assert ran == [1]
