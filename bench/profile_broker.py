"""`bench/run.py --profile`: py-spy samples of the josefk broker during a produce and a consume
workload (1 partition, 100 B records, confluent-kafka), written to bench/results/ as
profile-<ts>-<workload>.svg (flamegraph, hover for counts), .txt (raw collapsed stacks) and
-top.txt (the 20 hottest frames by own and by total samples).
"""

from __future__ import annotations

import hashlib
import html
import signal
import subprocess
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from run import RESULTS, ROOT, Broker, Plan, Row, consume_step, create_topic, produce_step

RATE = 200


def read_stacks(path: Path) -> Counter[tuple[str, ...]]:
    stacks: Counter[tuple[str, ...]] = Counter()
    for line in path.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if stack:
            stacks[tuple(stack.split(";"))] += int(count)
    return stacks


def short(frame: str) -> str:
    return frame.replace(str(ROOT) + "/", "").replace(str(ROOT / ".venv/lib/python3.11/site-packages") + "/", "")


def top_frames(stacks: Counter[tuple[str, ...]], seconds: float, n: int = 20) -> str:
    """The hottest frames; `seconds` is how long py-spy sampled."""
    total = sum(stacks.values()) or 1
    own: Counter[str] = Counter()
    incl: Counter[str] = Counter()
    for stack, count in stacks.items():
        own[stack[-1]] += count
        for frame in set(stack):
            incl[frame] += count
    out = [f"{total} samples holding the GIL at {RATE} Hz in {seconds:.2f} s of sampling: the broker's Python "
           f"code held the GIL {total / RATE / seconds:.0%} of the time", "", "own (self) samples:"]
    out += [f"{c / total:6.1%}  {short(f)}" for f, c in own.most_common(n)]
    out += ["", "total (inclusive) samples:"]
    out += [f"{c / total:6.1%}  {short(f)}" for f, c in incl.most_common(n)]
    return "\n".join(out)


def flamegraph(stacks: Counter[tuple[str, ...]], title: str, width: int = 1400, row: int = 17) -> str:
    """An icicle-style flamegraph (callers on top), one <rect> per frame with a <title> tooltip."""
    tree: dict[str, Any] = {"n": 0, "c": {}}
    for stack, count in stacks.items():
        node = tree
        node["n"] += count
        for frame in stack:
            node = node["c"].setdefault(frame, {"n": 0, "c": {}})
            node["n"] += count
    total = tree["n"] or 1
    rects: list[str] = []
    depth_max = 0

    def walk(node: dict[str, Any], x: float, depth: int) -> None:
        nonlocal depth_max
        for name, child in sorted(node["c"].items(), key=lambda kv: -kv[1]["n"]):
            w = child["n"] / total * width
            if w >= 0.5:
                depth_max = max(depth_max, depth)
                y = 30 + depth * row
                hue = int(hashlib.md5(name.split(" ")[0].encode()).hexdigest()[:2], 16)
                color = f"rgb(230,{90 + hue // 2},{40 + hue // 6})"
                label = html.escape(short(name))
                text = html.escape(short(name)[: int(w / 7)]) if w > 25 else ""
                rects.append(f'<g><title>{label} ({child["n"]} samples, {child["n"] / total:.1%})</title>'
                             f'<rect x="{x:.1f}" y="{y}" width="{w:.1f}" height="{row - 1}" fill="{color}"/>'
                             f'<text x="{x + 3:.1f}" y="{y + row - 5}">{text}</text></g>')
                walk(child, x, depth + 1)
            x += w

    walk(tree, 0.0, 0)
    height = 40 + (depth_max + 1) * row
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'font-family="monospace" font-size="11">'
            f'<text x="5" y="18" font-size="14">{html.escape(title)} ({total} samples)</text>'
            + "".join(rects) + "</svg>")


def profile(broker: Broker, name: str, step: Callable[[], Row], title: str, stamp: str,
            native: bool = False) -> tuple[Row, str]:
    """Run `step` with py-spy sampling the broker (with `native`, C frames too: system calls made
    while holding the GIL show up as such); writes bench/results/profile-<stamp>-<name>.svg, .txt and
    -top.txt and returns the step's row and the top frames' text."""
    raw = RESULTS / f"profile-{stamp}-{name}.txt"
    spy = subprocess.Popen([str(ROOT / ".venv/bin/py-spy"), "record", "--pid", str(broker.proc.pid),
                            "--rate", str(RATE), "--gil", "--format", "raw", "--function", "-o", str(raw),
                            *(["--native"] if native else [])],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    t0 = time.monotonic()
    time.sleep(1.0)  # let py-spy attach
    row = step()
    spy.send_signal(signal.SIGINT)
    sampled = time.monotonic() - t0
    _, err = spy.communicate(timeout=60)
    if not raw.exists():
        raise RuntimeError(f"py-spy wrote nothing: {err.decode()[-2000:]}")
    stacks = read_stacks(raw)
    (RESULTS / f"profile-{stamp}-{name}.svg").write_text(flamegraph(stacks, title))
    top = top_frames(stacks, sampled) + f"\nbroker CPU (utime+stime) {row['cpu_s']} s in the {row['seconds']} s step"
    (RESULTS / f"profile-{stamp}-{name}-top.txt").write_text(top + "\n")
    print(f"\n== {name}: bench/results/profile-{stamp}-{name}.svg\n{top}\n", flush=True)
    return row, top


def main(plan: Plan) -> int:
    RESULTS.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    count = plan.records
    broker = Broker("josefk")
    try:
        broker.start()
        assert broker.proc
        create_topic(broker, "w", 1)  # warm-up: first FindCoordinator creates __consumer_offsets
        produce_step(broker, "w", 1, 1000, 100, 1)
        consume_step(broker, "w", 1, 100, 1, 1000)
        create_topic(broker, "t", 1)
        steps = {"produce": lambda: produce_step(broker, "t", 1, count, 100, 1),
                 "consume": lambda: consume_step(broker, "t", 1, 100, 1, count)}
        for name, step in steps.items():
            profile(broker, name, step, f"josefk broker, {name} {count:,} x 100 B, 1 partition, confluent-kafka",
                    stamp)
    finally:
        broker.cleanup()
    return 0
