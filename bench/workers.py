"""Load-generator processes for bench/run.py: confluent-kafka (librdkafka) producers and consumers,
and a wrapper around the Java consumer (bench/java/BenchConsumer.java).

Each worker runs in its own process (multiprocessing, spawn), connects and fetches metadata,
reports "ready", waits for the common "go" event, does its work and puts a result dict on the
out queue. Times are time.monotonic() (CLOCK_MONOTONIC: comparable across processes).
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
import threading
import time
from multiprocessing.synchronize import Event
from queue import Queue
from typing import Any

STALL_SECONDS = 30.0


def producer_config(bootstrap: str, **extra: Any) -> dict[str, Any]:
    return {"bootstrap.servers": bootstrap, "acks": 1, "linger.ms": 5, "batch.size": 1_000_000,
            "queue.buffering.max.messages": 1_000_000, "queue.buffering.max.kbytes": 1_048_576,
            "compression.type": "none", "enable.idempotence": False, **extra}


def produce_all(producer: Any, topic: str, payload: bytes, count: int, backoff_s: float = 0.005) -> None:
    """Hand `count` records to librdkafka, waiting in poll() whenever its queue is full."""
    send = producer.produce
    for _ in range(count):
        try:
            send(topic, payload)
        except BufferError:
            while True:
                producer.poll(backoff_s)
                try:
                    send(topic, payload)
                    break
                except BufferError:
                    pass


def produce(bootstrap: str, topic: str, count: int, size: int, acks: int, ready: Queue, go: Event,
            out: Queue) -> None:
    """Produce `count` records of `size` random bytes as fast as librdkafka takes them."""
    from confluent_kafka import KafkaException, Producer

    errors: list[str] = []

    def on_error(err: Any, _msg: Any = None) -> None:
        if err is not None:
            errors.append(str(err))

    producer = Producer(producer_config(bootstrap, **{"acks": acks, "delivery.report.only.error": True,
                                                      "on_delivery": on_error, "error_cb": on_error}))
    producer.list_topics(topic, timeout=30)
    payload = os.urandom(size)
    ready.put(os.getpid())
    go.wait()
    start, cpu0 = time.monotonic(), time.process_time()
    produce_all(producer, topic, payload, count)
    left = producer.flush(120)
    end = time.monotonic()
    if left:
        raise KafkaException(f"{left} records not delivered")
    out.put({"role": "produce", "start": start, "end": end, "records": count, "errors": len(errors),
             "first_error": errors[0] if errors else "", "client_cpu": time.process_time() - cpu0})


# librdkafka stops fetching a partition for fetch.queue.backoff.ms (default 1000 ms) whenever a
# response takes its local queue over queued.max.messages.kbytes (64 MB), even if the application
# drains the queue a few ms later. A broker that answers quickly with full-size responses (up to
# max.partition.fetch.bytes, as Kafka does) trips this every few responses and the consumer sits
# idle most of each second. 10 ms keeps the client's back-pressure without the idle second; both
# brokers get the same setting.
FETCH_QUEUE_BACKOFF_MS = 10


def consume(bootstrap: str, topic: str, partitions: list[int], expected: int, done: Any, ready: Queue,
            go: Event, out: Queue) -> None:
    """Read `partitions` of `topic` from the beginning until all consumers together (the shared
    counter `done`) have `expected` records. (Tansu's ListOffsets answers a high watermark below
    the last offset, so the count comes from the producer side.)"""
    from confluent_kafka import OFFSET_BEGINNING, Consumer, TopicPartition

    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": f"bench-{os.getpid()}",
                         "enable.auto.commit": False, "fetch.max.bytes": 52_428_800,
                         "max.partition.fetch.bytes": 10_485_760, "fetch.wait.max.ms": 100,
                         "fetch.queue.backoff.ms": FETCH_QUEUE_BACKOFF_MS})
    consumer.list_topics(topic, timeout=30)
    ready.put(os.getpid())
    go.wait()
    start, cpu0 = time.monotonic(), time.process_time()
    consumer.assign([TopicPartition(topic, p, OFFSET_BEGINNING) for p in partitions])
    received = errors = 0
    last_progress = start
    while done.value < expected:
        batch = consumer.consume(100_000, timeout=0.01)  # returns what arrived within 10 ms
        now = time.monotonic()
        if batch:
            if batch[-1].error() is not None:  # only the last is checked: per-record checks cost 20 %
                errors += 1
                batch.pop()
            received += len(batch)
            with done.get_lock():
                done.value += len(batch)
            last_progress = now
        elif now - last_progress > STALL_SECONDS:
            break
    end = time.monotonic()
    cpu = time.process_time() - cpu0
    consumer.close()
    out.put({"role": "consume", "start": start, "end": end, "records": received, "errors": errors,
             "client_cpu": cpu})


def process_cpu_seconds(pid: int, children: bool = False) -> float:
    """utime + stime of a process (all its threads), from /proc; with `children`, also its
    waited-for children's (cutime + cstime)."""
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return sum(int(x) for x in fields[11:15 if children else 13]) / os.sysconf("SC_CLK_TCK")


def consume_java(classpath: str, bootstrap: str, topic: str, partitions: list[int], expected: int, done: Any,
                 ready: Queue, go: Event, out: Queue) -> None:
    """Like consume(), with Kafka's Java consumer in a JVM started, connected and warmed up (one
    untimed read of the same partitions) before "go"."""
    cmd = ["java", "-cp", classpath, "BenchConsumer", bootstrap, topic, ",".join(map(str, partitions)),
           str(expected)]
    with tempfile.TemporaryFile("w+") as err, \
            subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err, text=True) as proc:
        assert proc.stdin and proc.stdout
        if proc.stdout.readline().strip() != "ready":
            err.seek(0)
            raise RuntimeError(f"BenchConsumer exited with {proc.wait()}: {err.read()}")
        ready.put(os.getpid())
        go.wait()
        cpu0, start = process_cpu_seconds(proc.pid), time.monotonic()
        proc.stdin.write("go\n")
        proc.stdin.flush()
        result = json.loads(proc.stdout.readline())
        end, cpu = time.monotonic(), process_cpu_seconds(proc.pid) - cpu0
        proc.stdin.close()
        proc.wait(30)
    with done.get_lock():
        done.value += result["records"]
    out.put({"role": "consume", "start": start, "end": end, "records": result["records"], "errors": 0,
             "client_cpu": cpu})


def latency(bootstrap: str, topic: str, rate: int, seconds: float, size: int, ready: Queue, go: Event,
            out: Queue) -> None:
    """Produce at a fixed rate with linger.ms=0 (Kafka 3.9's Java default) and record each
    record's produce() -> delivery report latency from librdkafka."""
    from confluent_kafka import Producer

    lat: list[float] = []
    errors = 0

    def on_delivery(err: Any, msg: Any) -> None:
        nonlocal errors
        if err is None:
            lat.append(msg.latency())
        else:
            errors += 1

    producer = Producer(producer_config(bootstrap, **{"linger.ms": 0, "on_delivery": on_delivery}))
    producer.list_topics(topic, timeout=30)
    payload = os.urandom(size)
    producer.produce(topic, payload)  # warm-up: connection to the leader
    producer.flush(30)
    lat.clear()
    # msg.latency() is read when the callback runs, so a thread waits in poll() to run it at once
    stop = threading.Event()
    poller = threading.Thread(target=lambda: [producer.poll(0.05) for _ in iter(stop.is_set, True)])
    ready.put(os.getpid())
    go.wait()
    cpu0 = time.process_time()
    poller.start()
    count = int(rate * seconds)
    start = time.monotonic()
    sent = 0
    while sent < count:
        due = min(count, int((time.monotonic() - start) * rate) + 1)
        while sent < due:
            producer.produce(topic, payload)
            sent += 1
        time.sleep(0.001)
    producer.flush(60)
    end = time.monotonic()
    stop.set()
    poller.join()
    out.put({"role": "latency", "start": start, "end": end, "records": count, "errors": errors,
             "latencies": lat, "client_cpu": time.process_time() - cpu0})


def request_rate(bootstrap: str, topic: str, producers: int, seconds: float, size: int, window: int,
                 ready: Queue, go: Event, out: Queue) -> None:
    """`producers` librdkafka producers in this process (one poll thread each), each sending one
    record per Produce request (linger.ms=0, batch.num.messages=1) and keeping `window` records
    outstanding (librdkafka's default max.in.flight of 5): every delivery report sends the next
    record. Counts the records delivered within `seconds` after "go" and their produce() ->
    delivery latencies; the broker, not a client-side batch, sets the pace."""
    from confluent_kafka import Producer

    payload = os.urandom(size)
    stop = threading.Event()
    lat: list[list[float]] = [[] for _ in range(producers)]
    errors = [0] * producers
    clients = []
    for _ in range(producers):
        p = Producer({"bootstrap.servers": bootstrap, "acks": 1, "linger.ms": 0, "batch.num.messages": 1,
                      "compression.type": "none", "enable.idempotence": False})
        p.list_topics(topic, timeout=30)
        p.produce(topic, payload)  # warm-up: connection to the leader
        p.flush(30)
        clients.append(p)

    def run(i: int) -> None:
        p, mine = clients[i], lat[i]

        def on_delivery(err: Any, msg: Any) -> None:
            if stop.is_set():
                return
            if err is None:
                mine.append(msg.latency())
            else:
                errors[i] += 1
            p.produce(topic, payload, on_delivery=on_delivery)

        for _ in range(window):
            p.produce(topic, payload, on_delivery=on_delivery)
        while not stop.is_set():
            p.poll(0.05)
        p.flush(30)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(producers)]
    ready.put(os.getpid())
    go.wait()
    cpu0, start = time.process_time(), time.monotonic()
    for t in threads:
        t.start()
    time.sleep(seconds)
    stop.set()
    end = time.monotonic()
    for t in threads:
        t.join()
    latencies = [x for m in lat for x in m]
    out.put({"role": "request-rate", "start": start, "end": end, "records": len(latencies), "errors": sum(errors),
             "latencies": latencies, "client_cpu": time.process_time() - cpu0})
