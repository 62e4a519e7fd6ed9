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
    from confluent_kafka import Consumer, TopicPartition

    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": f"bench-{os.getpid()}",
                         "enable.auto.commit": False, "fetch.max.bytes": 52_428_800,
                         "max.partition.fetch.bytes": 10_485_760, "fetch.wait.max.ms": 100,
                         "fetch.queue.backoff.ms": FETCH_QUEUE_BACKOFF_MS, "auto.offset.reset": "earliest"})
    consumer.list_topics(topic, timeout=30)
    ready.put(os.getpid())
    go.wait()
    start, cpu0 = time.monotonic(), time.process_time()
    # Offset 0, not OFFSET_BEGINNING: the bench's topics are new (a log start past 0 would be
    # out of range and reset to the earliest). OFFSET_BEGINNING makes librdkafka 2.16 send one
    # ListOffsets per partition, and with 10,000 partitions the last few hundred of them,
    # queued once its first Fetch has gone out, are never sent: those partitions are never
    # fetched and the consume stalls (as much against Kafka 3.9; docs/benchmarks-broker.md).
    consumer.assign([TopicPartition(topic, p, 0) for p in partitions])
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


def request_rate(bootstrap: str, topic: str, producers: int, seconds: float, size: int, window: int, acks: int,
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
        p = Producer({"bootstrap.servers": bootstrap, "acks": acks, "linger.ms": 0, "batch.num.messages": 1,
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


def connection_load(bootstrap: str, hello: bytes, request: bytes, cmd: Queue, reply: Queue) -> None:
    """Many raw Kafka connections in one process, driven by commands from the parent:
    ("connect", n) opens n more connections in waves of 50 (each sends `hello` and waits for its
    answer, so the broker has accepted and served it; a wave stays under every listen backlog),
    ("active",) makes every connection send `request` once a second (staggered over the second,
    one outstanding per connection) until ("idle",), which answers the counts and latencies;
    ("close",) closes them all; ("exit",) ends the process."""
    import selectors
    import socket
    import struct

    host, port = bootstrap.split(",")[0].rsplit(":", 1)
    sel = selectors.DefaultSelector()
    socks: list[socket.socket] = []
    bufs: dict[socket.socket, bytearray] = {}
    sent_at: dict[socket.socket, float] = {}
    closed = 0

    def pump(timeout: float) -> list[float]:
        """Read what has arrived; the latencies of the responses completed."""
        nonlocal closed
        done = []
        for key, _ in sel.select(timeout):
            s: socket.socket = key.fileobj  # type: ignore[assignment]
            try:
                data = s.recv(65536)
            except OSError:
                data = b""
            if not data:
                closed += 1
                sel.unregister(s)
                sent_at.pop(s, None)
                continue
            buf = bufs[s]
            buf += data
            while len(buf) >= 4 and len(buf) >= 4 + struct.unpack_from(">i", buf)[0]:
                del buf[:4 + struct.unpack_from(">i", buf)[0]]
                t = sent_at.pop(s, None)
                if t is not None:
                    done.append(time.monotonic() - t)
        return done

    while True:
        msg = cmd.get()
        if msg[0] == "connect":
            t0 = time.monotonic()
            for first in range(0, msg[1], 50):
                wave = []
                for _ in range(min(50, msg[1] - first)):
                    s = socket.create_connection((host, int(port)), timeout=30)
                    s.setblocking(False)
                    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                    bufs[s] = bytearray()
                    sel.register(s, selectors.EVENT_READ)
                    sent_at[s] = time.monotonic()
                    s.send(hello)
                    wave.append(s)
                deadline = time.monotonic() + 60
                while any(s in sent_at for s in wave) and time.monotonic() < deadline:
                    pump(0.05)
                socks += wave
            reply.put({"connected": len(socks), "seconds": time.monotonic() - t0, "closed": closed})
        elif msg[0] == "active":
            lat: list[float] = []
            n, sent, late = len(socks), 0, 0
            start = time.monotonic()
            while True:
                due = int((time.monotonic() - start) * n)  # n requests a second over n connections
                while sent < due:
                    s = socks[sent % n]
                    sent += 1
                    if s in sent_at or s.fileno() < 0:
                        late += 1  # the previous request is still unanswered: skip this second's
                        continue
                    sent_at[s] = time.monotonic()
                    s.send(request)
                lat += pump(0.002)
                try:
                    stop = cmd.get_nowait()
                except Exception:  # noqa: BLE001  (queue.Empty from a multiprocessing queue)
                    continue
                assert stop[0] == "idle"
                break
            seconds = time.monotonic() - start
            deadline = time.monotonic() + 5
            while sent_at and time.monotonic() < deadline:
                lat += pump(0.05)
            reply.put({"sent": sent - late, "late": late, "answered": len(lat), "seconds": seconds,
                       "latencies": lat, "closed": closed})
        elif msg[0] == "close":
            for s in socks:
                if s in bufs:
                    try:
                        sel.unregister(s)
                    except (KeyError, ValueError):
                        pass
                s.close()
            socks.clear()
            bufs.clear()
            sent_at.clear()
            reply.put({"closed": closed})
        else:
            return


E2E_HEADER = ">dQ"  # each value starts with the producer's time.monotonic() at produce() and the step's tag


def e2e_produce(bootstrap: str, topic: str, rate: int, seconds: float, size: int, acks: int, tag: int,
                ready: Queue, go: Event, out: Queue) -> None:
    """Produce rate x seconds records at a fixed rate (linger.ms=0, Kafka 3.9's Java default), each
    value starting with its send time and the step's tag, and record librdkafka's produce() ->
    delivery latency."""
    import struct

    from confluent_kafka import Producer

    lat: list[float] = []
    errors = 0

    def on_delivery(err: Any, msg: Any) -> None:
        nonlocal errors
        if err is None:
            lat.append(msg.latency())
        else:
            errors += 1

    producer = Producer(producer_config(bootstrap, **{"linger.ms": 0, "acks": acks, "on_delivery": on_delivery}))
    producer.list_topics(topic, timeout=30)
    pad = os.urandom(size - struct.calcsize(E2E_HEADER))
    producer.produce(topic, struct.pack(E2E_HEADER, 0.0, 0) + pad)  # connection to the leader (tag 0: not counted)
    producer.flush(30)
    lat.clear()
    stop = threading.Event()
    poller = threading.Thread(target=lambda: [producer.poll(0.05) for _ in iter(stop.is_set, True)])
    ready.put(os.getpid())
    go.wait()
    cpu0 = time.process_time()
    poller.start()
    count = int(rate * seconds)
    pack, send = struct.Struct(E2E_HEADER).pack, producer.produce
    start = time.monotonic()
    sent = 0
    while sent < count:
        due = min(count, int((time.monotonic() - start) * rate) + 1)
        while sent < due:
            try:
                send(topic, pack(time.monotonic(), tag) + pad)
            except BufferError:
                break
            sent += 1
        time.sleep(0.0005)
    sent_end = time.monotonic()
    producer.flush(120)
    end = time.monotonic()
    stop.set()
    poller.join()
    out.put({"role": "e2e-produce", "start": start, "end": end, "sent_end": sent_end, "records": count,
             "errors": errors, "latencies": lat, "client_cpu": time.process_time() - cpu0})


def e2e_consume(bootstrap: str, topic: str, partitions: list[int], expected: int, tag: int, ready: Queue,
                go: Event, out: Queue) -> None:
    """Read `partitions` from their end offsets before "go" until `expected` records of this step
    (its tag) arrived, or nothing came for STALL_SECONDS: each record's latency is now - the
    producer's send time. (The tag skips older records: Tansu's ListOffsets answers a high watermark
    below the last offset.)"""
    import struct

    from confluent_kafka import Consumer, TopicPartition

    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": f"bench-e2e-{os.getpid()}",
                         "enable.auto.commit": False, "fetch.wait.max.ms": 500})
    tps = [TopicPartition(topic, p, consumer.get_watermark_offsets(TopicPartition(topic, p), timeout=30)[1])
           for p in partitions]
    consumer.assign(tps)
    consumer.consume(1, timeout=0.5)  # the first fetches are in flight
    unpack = struct.Struct(E2E_HEADER).unpack_from
    ready.put(os.getpid())
    go.wait()
    start, cpu0 = time.monotonic(), time.process_time()
    lat: list[float] = []
    errors = 0
    last = start
    while len(lat) < expected:
        # poll() returns as soon as a record is there; consume(n, timeout) would wait for n of them
        first = consumer.poll(0.05)
        batch = [first, *consumer.consume(10_000, timeout=0)] if first is not None else []
        now = time.monotonic()
        for m in batch:
            if m.error() is not None:
                errors += 1
                continue
            sent, mine = unpack(m.value() or b"")
            if mine == tag:
                lat.append(now - sent)
        if batch:
            last = now
        elif now - last > STALL_SECONDS:
            break
    end = time.monotonic()
    cpu = time.process_time() - cpu0
    consumer.close()
    out.put({"role": "e2e-consume", "start": start, "end": end, "records": len(lat), "errors": errors,
             "latencies": lat, "client_cpu": cpu})


def load_consume(bootstrap: str, topic: str, seconds: float, max_rate: int, ready: Queue, go: Event,
                 out: Queue) -> None:
    """Background consumer load: re-read partition 0 of `topic` from the start, over and over, at up
    to max_rate records/s, for `seconds` after "go"."""
    from confluent_kafka import OFFSET_BEGINNING, Consumer, TopicPartition

    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": f"bench-load-{os.getpid()}",
                         "enable.auto.commit": False, "queued.max.messages.kbytes": 4096,
                         "fetch.queue.backoff.ms": FETCH_QUEUE_BACKOFF_MS})
    high = consumer.get_watermark_offsets(TopicPartition(topic, 0), timeout=30)[1]
    ready.put(os.getpid())
    go.wait()
    start, cpu0 = time.monotonic(), time.process_time()
    consumer.assign([TopicPartition(topic, 0, OFFSET_BEGINNING)])
    received = errors = 0
    while (now := time.monotonic()) < start + seconds:
        ahead = received - (now - start) * max_rate
        if ahead > 0:
            time.sleep(min(ahead / max_rate, start + seconds - now))
            continue
        for m in consumer.consume(5000, timeout=0.05):
            if m.error() is None:
                received += 1
                if (m.offset() or 0) >= high - 1:
                    consumer.assign([TopicPartition(topic, 0, OFFSET_BEGINNING)])  # again from the start
                    break
            else:
                errors += 1
    end = time.monotonic()
    cpu = time.process_time() - cpu0
    consumer.close()
    out.put({"role": "load-consume", "start": start, "end": end, "records": received, "errors": errors,
             "client_cpu": cpu})
