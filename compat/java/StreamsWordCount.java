import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.*;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.kafka.clients.admin.*;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.apache.kafka.streams.kstream.*;
import org.apache.kafka.streams.state.Stores;

/**
 * The streams-wordcount scenario of Harness (java-4 column): an at-least-once Kafka Streams app,
 * input topic (2 partitions) -> flatMapValues(split) -> groupBy(word) -> count -> output topic.
 * groupBy makes Streams create a repartition topic and count a compacted changelog topic (both
 * through CreateTopics with configs, replication.factor -1 = the broker's default). Checks: the
 * last count per word read back from the output topic equals the count of that word in the input
 * exactly, every word's counts increase by one at a time, the internal topics exist with the
 * configs Streams gave them, Streams purges the repartition topic (DeleteRecords), and the app's
 * committed offsets cover the whole input. Two instances run one after the other, each on half
 * the input; the second starts with empty state, so it must restore the counts from the changelog.
 * streams-protocol-wordcount runs the same with group.protocol=streams (KIP-1071): the group
 * coordinator assigns the tasks and creates the internal topics, with the configs of the topology
 * the app sends in StreamsGroupHeartbeat.
 */
public final class StreamsWordCount {
    static final String[] WORDS = {"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota"};
    static final int LINES = 60;

    /** Line i of the input: 1..5 words chosen deterministically. */
    static String line(int i) {
        StringJoiner j = new StringJoiner(" ");
        for (int k = 0; k <= i % 5; k++) j.add(WORDS[(i * 7 + k * 3) % WORDS.length]);
        return j.toString();
    }

    final Harness h;
    final String protocol;  // group.protocol: classic or streams
    final String in, out, app;
    final long deadline;
    final Map<String, Long> want = new TreeMap<>(), last = new TreeMap<>();
    final List<String> problems = new ArrayList<>();
    int outputs;

    StreamsWordCount(Harness h, String protocol) {
        this.h = h;
        this.protocol = protocol;
        String p = protocol.equals("classic") ? h.prefix : h.prefix + "-streams-protocol";
        in = p + "-streams-in";
        out = p + "-streams-out";
        app = p + "-wordcount";
        deadline = System.currentTimeMillis() + (long) (Double.parseDouble(h.args.getOrDefault("timeout", "30")) * 2000) - 8000;
    }

    /** Lines [from, to) to the input topic, line i to partition i % 2; counts their words into want. */
    void produce(int from, int to) {
        try (Harness.Producer p = h.producer("none")) {
            for (int i = from; i < to; i++) {
                p.send(new ProducerRecord<>(in, i % 2, Harness.by("line-" + i), Harness.by(line(i))));
                for (String w : line(i).split(" ")) want.merge(w, 1L, Long::sum);
            }
            p.flush();
        }
    }

    KafkaStreams start(Path stateDir, AtomicReference<Throwable> died) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, app);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, h.bootstrap);
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.AT_LEAST_ONCE);
        props.put(StreamsConfig.GROUP_PROTOCOL_CONFIG, protocol);
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "200");
        props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, "0");  // every update reaches the output topic
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.consumerPrefix("auto.offset.reset"), "earliest");
        props.put(StreamsConfig.REQUEST_TIMEOUT_MS_CONFIG, "15000");
        props.put(StreamsConfig.REPARTITION_PURGE_INTERVAL_MS_CONFIG, "200");  // DeleteRecords on the repartition topic

        StreamsBuilder sb = new StreamsBuilder();
        sb.stream(in, Consumed.with(Serdes.String(), Serdes.String()))
                .flatMapValues(v -> Arrays.asList(v.split(" ")))
                .groupBy((k, w) -> w, Grouped.with("words", Serdes.String(), Serdes.String()))
                .count(Materialized.<String, Long>as(Stores.inMemoryKeyValueStore("counts"))
                        .withKeySerde(Serdes.String()).withValueSerde(Serdes.Long()))
                .toStream()
                .to(out, Produced.with(Serdes.String(), Serdes.Long()));
        KafkaStreams ks = new KafkaStreams(sb.build(), props);
        ks.setUncaughtExceptionHandler(e -> {
            died.set(e);
            return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        });
        ks.start();
        return ks;
    }

    /** Read the output topic until the last count of every word equals want. */
    void awaitCounts(Harness.Consumer c, KafkaStreams ks, AtomicReference<Throwable> died, String phase) {
        while (!last.equals(want) && System.currentTimeMillis() < deadline) {
            if (died.get() != null) throw new Harness.Failed(phase + ": the Streams app died: " + Harness.describe(died.get()));
            if (ks.state() == KafkaStreams.State.ERROR) throw new Harness.Failed(phase + ": the Streams app is in state ERROR");
            for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(300))) {
                outputs++;
                String w = Harness.bs(r.key());
                long v = ByteBuffer.wrap(r.value()).getLong();
                long prev = last.getOrDefault(w, 0L);
                if (v != prev + 1 && problems.size() < 5)
                    problems.add(phase + ": " + w + " count " + v + " at offset " + r.offset() + " after " + prev);
                last.put(w, v);
            }
        }
        if (!last.equals(want))
            throw new Harness.Failed(phase + ": output counts " + last + " != input counts " + want + " (state " + ks.state() + ")");
        if (!problems.isEmpty()) throw new Harness.Failed("counts did not increase by one: " + problems);
    }

    public static String run(Harness h) throws Exception {
        return new StreamsWordCount(h, "classic").run();
    }

    /** streams-protocol-wordcount: the same app and checks with group.protocol=streams (KIP-1071). */
    public static String runStreamsProtocol(Harness h) throws Exception {
        return "group.protocol=streams: " + new StreamsWordCount(h, "streams").run();
    }

    String run() throws Exception {
        try (Harness.BoundedAdmin b = h.admin()) {
            b.a.createTopics(List.of(new NewTopic(in, 2, (short) 1), new NewTopic(out, 1, (short) 1)))
                    .all().get(20, TimeUnit.SECONDS);
        }
        long purged;
        TopicPartition op = new TopicPartition(out, 0);
        AtomicReference<Throwable> died = new AtomicReference<>();
        try (Harness.Consumer c = h.consumer()) {
            c.assign(List.of(op));
            c.seekToBeginning(List.of(op));
            // First instance: half the input, then a clean close (commits) and its state wiped.
            produce(0, LINES / 2);
            Path dir1 = Files.createTempDirectory("compat-streams-");
            KafkaStreams ks1 = start(dir1, died);
            try {
                awaitCounts(c, ks1, died, "first instance");
            } finally {
                // Leave the group: a Streams member otherwise stays in it until its session times out.
                ks1.close(CloseOptions.timeout(Duration.ofSeconds(20))
                        .withGroupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP));
                ks1.cleanUp();
                delete(dir1);
            }
            // Second instance, fresh state: it must restore the counts from the changelog and go on
            // from the committed input offsets (a restart from 0 would count a word 1 again).
            produce(LINES / 2, LINES);
            Path dir2 = Files.createTempDirectory("compat-streams-");
            KafkaStreams ks = start(dir2, died);
            try {
                awaitCounts(c, ks, died, "second instance");
                purged = checkTopics(ks);
            } finally {
                ks.close(Duration.ofSeconds(20));
                ks.cleanUp();
                delete(dir2);
            }
        }
        try (Harness.BoundedAdmin b = h.admin()) {
            Map<TopicPartition, OffsetAndMetadata> committed = b.a.listConsumerGroupOffsets(app)
                    .partitionsToOffsetAndMetadata().get(20, TimeUnit.SECONDS);
            for (int part = 0; part < 2; part++) {
                OffsetAndMetadata o = committed.get(new TopicPartition(in, part));
                if (o == null || o.offset() != LINES / 2)
                    throw new Harness.Failed("committed offset of " + in + "-" + part + " is " + o + ", expected "
                            + LINES / 2 + "; committed: " + committed);
            }
        }
        return want.size() + " words from " + LINES + " lines counted exactly over two instances (" + outputs
                + " output records; the second restored the counts from the changelog); internal topic configs kept; "
                + purged + " repartition records purged; input offsets committed";
    }

    /** The internal topics' configs, and Streams' purge of the repartition topic; returns the records purged. */
    long checkTopics(KafkaStreams ks) throws Exception {
        String repartition = app + "-words-repartition", changelog = app + "-counts-changelog";
        try (Harness.BoundedAdmin b = h.admin()) {
            Admin a = b.a;
            Set<String> names = a.listTopics().names().get(20, TimeUnit.SECONDS);
            for (String t : List.of(repartition, changelog))
                if (!names.contains(t)) throw new Harness.Failed("internal topic " + t + " missing; topics: " + names);
            // The configs Streams creates them with (InternalTopicManager): the broker must keep them.
            Map<String, String> configs = new TreeMap<>(), wantConfigs = new TreeMap<>(Map.of(
                    changelog + " cleanup.policy", "compact", repartition + " cleanup.policy", "delete",
                    repartition + " retention.ms", "-1", repartition + " segment.bytes", "52428800"));
            for (String t : List.of(repartition, changelog)) {
                ConfigResource cr = new ConfigResource(ConfigResource.Type.TOPIC, t);
                Config cfg = a.describeConfigs(List.of(cr)).all().get(20, TimeUnit.SECONDS).get(cr);
                for (String k : List.of("cleanup.policy", "retention.ms", "segment.bytes"))
                    if (wantConfigs.containsKey(t + " " + k)) configs.put(t + " " + k, cfg.get(k).value());
            }
            if (!configs.equals(wantConfigs))
                throw new Harness.Failed("internal topic configs " + configs + ", expected " + wantConfigs);
            // Streams purges what it has committed of the repartition topic with DeleteRecords.
            List<TopicPartition> rps = List.of(new TopicPartition(repartition, 0), new TopicPartition(repartition, 1));
            return Harness.waitFor(() -> {
                try {
                    long sum = 0;
                    for (var e : a.listOffsets(Map.of(rps.get(0), OffsetSpec.earliest(), rps.get(1), OffsetSpec.earliest()))
                            .all().get(10, TimeUnit.SECONDS).values()) sum += e.offset();
                    return sum > 0 ? sum : null;
                } catch (Exception e) { throw new RuntimeException(e); }
            }, Math.max(2000, deadline - System.currentTimeMillis()), "Streams to purge " + repartition + " (log start offset > 0)");
        }
    }

    static void delete(Path dir) throws java.io.IOException {
        try (var paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
    }
}
