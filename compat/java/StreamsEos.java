import java.io.File;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.*;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.*;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.apache.kafka.streams.kstream.*;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The streams-eos scenario of Harness (java-4 column): a word count with
 * processing.guarantee=exactly_once_v2, run as a separate JVM (main() below) so that it can be
 * killed for real with SIGKILL in the middle of the input, then restarted with the same
 * application.id and state dir. Exactly-once means the restarted app goes on from the offsets
 * committed in its last committed transaction, with the counts restored from the changelog, and
 * the aborted (open at the kill) transaction's output never reaches a read_committed reader: every
 * word's counts in the output topic rise by one at a time to exactly the input's count, and the
 * changelog holds the same final counts.
 */
public final class StreamsEos {
    static final String[] WORDS = {"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota"};
    static final int RECORDS = 3000, PARTITIONS = 3;

    static String word(int i) { return WORDS[(i * i + i / 7) % WORDS.length]; }

    // ---- the app (a separate JVM) ----

    /** args: bootstrap applicationId inputTopic outputTopic stateDir. Exits when stdin closes (its driver died). */
    public static void main(String[] a) throws Exception {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, a[1]);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, a[0]);
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, "0");  // one output record per input record
        // A persistent store: Streams keeps its process id in the state dir only then, so the restarted
        // app has the killed one's transactional.id and fences it (instead of waiting out its transaction).
        props.put(StreamsConfig.STATE_DIR_CONFIG, a[4]);
        props.put(StreamsConfig.consumerPrefix("auto.offset.reset"), "earliest");
        // The killed member leaves the group when its session expires; the broker's minimum keeps that short.
        props.put(StreamsConfig.consumerPrefix("session.timeout.ms"), "6000");
        props.put(StreamsConfig.consumerPrefix("heartbeat.interval.ms"), "500");
        props.put(StreamsConfig.REQUEST_TIMEOUT_MS_CONFIG, "15000");

        StreamsBuilder sb = new StreamsBuilder();
        sb.stream(a[2], Consumed.with(Serdes.String(), Serdes.String()))
                .peek((k, v) -> pause())  // slow enough that the kill lands mid-stream
                .groupBy((k, w) -> w, Grouped.with("words", Serdes.String(), Serdes.String()))
                .count(Materialized.<String, Long, KeyValueStore<Bytes, byte[]>>as("counts"))
                .toStream()
                .to(a[3], Produced.with(Serdes.String(), Serdes.Long()));
        KafkaStreams ks = new KafkaStreams(sb.build(), props);
        ks.setStateListener((now, before) -> System.out.println("state " + before + " -> " + now));
        ks.setUncaughtExceptionHandler(e -> {
            e.printStackTrace(System.out);
            return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        });
        ks.start();
        while (System.in.read() >= 0) { }  // the driver holds stdin open while it wants the app to run
        ks.close(Duration.ofSeconds(10));
        Runtime.getRuntime().halt(0);
    }

    static void pause() {
        try { Thread.sleep(2); } catch (InterruptedException e) { Thread.currentThread().interrupt(); }
    }

    // ---- the driver (runs in Harness) ----

    final Harness h;
    final String in, out, app;
    final long deadline;
    final Map<String, Long> want = new TreeMap<>(), last = new TreeMap<>();
    final List<String> problems = new ArrayList<>();
    int outputs;

    StreamsEos(Harness h) {
        this.h = h;
        in = h.prefix + "-eos-in";
        out = h.prefix + "-eos-out";
        app = h.prefix + "-eos";
        deadline = System.currentTimeMillis() + (long) (Double.parseDouble(h.args.getOrDefault("timeout", "30")) * 2000) - 5000;
    }

    public static String run(Harness h) throws Exception {
        return new StreamsEos(h).run();
    }

    Process startApp(Path stateDir, int n) throws Exception {
        File log = new File(".logs", h.args.get("client") + ".streams-eos-" + n + ".log");
        return new ProcessBuilder("java", "-cp", System.getProperty("java.class.path"), "StreamsEos",
                h.bootstrap, app, in, out, stateDir.toString())
                .redirectErrorStream(true).redirectOutput(log).start();
    }

    String run() throws Exception {
        try (Harness.BoundedAdmin b = h.admin()) {
            b.a.createTopics(List.of(new NewTopic(in, PARTITIONS, (short) 1), new NewTopic(out, 1, (short) 1)))
                    .all().get(20, TimeUnit.SECONDS);
        }
        Path state = Files.createTempDirectory("compat-streams-eos-");
        Process first = null, second = null;
        try (Harness.Consumer c = h.consumer("read_committed")) {
            TopicPartition op = new TopicPartition(out, 0);
            c.assign(List.of(op));
            c.seekToBeginning(List.of(op));
            // First half: the app counts it and commits; then the second half, and the kill as soon as the
            // app has committed a transaction of it (the rest is in flight: input, repartition, output).
            long t0 = System.currentTimeMillis();
            produce(0, RECORDS / 2);
            first = startApp(state, 1);
            read(c, () -> outputs >= RECORDS / 2, first, "first app");
            produce(RECORDS / 2, RECORDS);
            Process app1 = first;
            Harness.waitFor(() -> app1.isAlive() && committedInput() == RECORDS / 2 ? null : true,
                    Math.max(2000, deadline - System.currentTimeMillis()), "the first app to commit input of the second half");
            if (!first.isAlive()) throw new Harness.Failed("the first app exited with " + first.exitValue() + " before the kill (log: compat/.logs/)");
            first.destroyForcibly();  // SIGKILL: no close, no commit, its open transaction left behind
            long killedAt = System.currentTimeMillis() - t0;
            if (!first.waitFor(10, TimeUnit.SECONDS)) throw new Harness.Failed("the first app did not die on SIGKILL");
            long atKill = committedInput();
            if (atKill >= RECORDS)
                throw new Harness.Failed("the first app had committed all input before the kill, " + killedAt + " ms after the start");
            int seenAtKill = outputs;
            second = startApp(state, 2);
            read(c, () -> last.equals(want), second, "restarted app");
            if (!problems.isEmpty()) throw new Harness.Failed("counts did not rise by one (double counting?): " + problems);
            if (outputs != RECORDS) throw new Harness.Failed(outputs + " committed output records, expected one per input record: " + RECORDS);
            long drained = Harness.waitFor(() -> committedInput() == RECORDS ? RECORDS : null,
                    Math.max(2000, deadline - System.currentTimeMillis()), "the app to commit all input offsets");
            Map<String, Long> changelog = changelog();
            if (!changelog.equals(want)) throw new Harness.Failed("changelog (read_committed) counts " + changelog + " != input counts " + want);
            return RECORDS + " records over " + PARTITIONS + " partitions: first app SIGKILLed after " + seenAtKill
                    + " committed outputs, " + killedAt + " ms after the start (input offsets committed: "
                    + atKill + "), restarted; read_committed output has "
                    + outputs + " records, every word's counts rise by one to exactly the input's " + want
                    + "; changelog agrees; input offsets committed: " + drained;
        } finally {
            for (Process p : new Process[]{first, second}) if (p != null) { p.destroyForcibly(); p.waitFor(10, TimeUnit.SECONDS); }
            StreamsWordCount.delete(state);
        }
    }

    /** Records [from, to) to the input topic, record i to partition i % PARTITIONS; counts their words into want. */
    void produce(int from, int to) {
        try (Harness.Producer p = h.producer("none")) {
            for (int i = from; i < to; i++) {
                p.send(new ProducerRecord<>(in, i % PARTITIONS, Harness.by("r-" + i), Harness.by(word(i))));
                want.merge(word(i), 1L, Long::sum);
            }
            p.flush();
        }
    }

    /** Poll the output (read_committed) into last until done, checking counts rise by one; fail if the app dies. */
    void read(Harness.Consumer c, java.util.function.BooleanSupplier done, Process proc, String who) {
        while (!done.getAsBoolean()) {
            if (!proc.isAlive()) throw new Harness.Failed(who + " exited with " + proc.exitValue() + " (log: compat/.logs/)");
            if (System.currentTimeMillis() > deadline)
                throw new Harness.Failed(who + ": output counts " + last + " != input counts " + want + " after " + outputs + " records");
            for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
                outputs++;
                String w = Harness.bs(r.key());
                long v = ByteBuffer.wrap(r.value()).getLong(), prev = last.getOrDefault(w, 0L);
                if (v != prev + 1 && problems.size() < 5) problems.add(who + ": " + w + " count " + v + " at offset " + r.offset() + " after " + prev);
                last.put(w, v);
            }
        }
    }

    /** The app's committed input offsets, summed over the partitions. */
    long committedInput() {
        try (Harness.BoundedAdmin b = h.admin()) {
            long sum = 0;
            for (Map.Entry<TopicPartition, OffsetAndMetadata> e : b.a.listConsumerGroupOffsets(app)
                    .partitionsToOffsetAndMetadata().get(20, TimeUnit.SECONDS).entrySet())
                if (e.getKey().topic().equals(in) && e.getValue() != null) sum += e.getValue().offset();
            return sum;
        } catch (Exception e) { throw new RuntimeException(e); }
    }

    /** The last count per word in the changelog topic, read_committed. */
    Map<String, Long> changelog() {
        String t = app + "-counts-changelog";
        Map<String, Long> got = new TreeMap<>();
        try (Harness.Consumer c = h.consumer("read_committed")) {
            List<TopicPartition> tps = new ArrayList<>();
            for (int i = 0; i < PARTITIONS; i++) tps.add(new TopicPartition(t, i));
            c.assign(tps);
            c.seekToBeginning(tps);
            Map<TopicPartition, Long> end = c.endOffsets(tps);
            while (System.currentTimeMillis() < deadline && tps.stream().anyMatch(tp -> c.position(tp) < end.get(tp)))
                for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200)))
                    got.put(Harness.bs(r.key()), r.value() == null ? null : ByteBuffer.wrap(r.value()).getLong());
        }
        return got;
    }
}
