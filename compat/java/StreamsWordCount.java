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
 * committed offsets cover the whole input.
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

    public static String run(Harness h) throws Exception {
        long purged;
        String in = h.prefix + "-streams-in", out = h.prefix + "-streams-out", app = h.prefix + "-wordcount";
        long deadline = System.currentTimeMillis() + (long) (Double.parseDouble(h.args.getOrDefault("timeout", "30")) * 2000) - 8000;
        Map<String, Long> want = new TreeMap<>();
        try (Harness.BoundedAdmin b = h.admin()) {
            b.a.createTopics(List.of(new NewTopic(in, 2, (short) 1), new NewTopic(out, 1, (short) 1)))
                    .all().get(20, TimeUnit.SECONDS);
        }
        try (Harness.Producer p = h.producer("none")) {
            for (int i = 0; i < LINES; i++) {
                p.send(new ProducerRecord<>(in, i % 2, Harness.by("line-" + i), Harness.by(line(i))));
                for (String w : line(i).split(" ")) want.merge(w, 1L, Long::sum);
            }
            p.flush();
        }

        Path stateDir = Files.createTempDirectory("compat-streams-");
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, app);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, h.bootstrap);
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.AT_LEAST_ONCE);
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

        AtomicReference<Throwable> died = new AtomicReference<>();
        Map<String, Long> last = new TreeMap<>();
        List<String> problems = new ArrayList<>();
        int outputs = 0;
        KafkaStreams ks = new KafkaStreams(sb.build(), props);
        ks.setUncaughtExceptionHandler(e -> {
            died.set(e);
            return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        });
        try {
            ks.start();
            TopicPartition op = new TopicPartition(out, 0);
            try (Harness.Consumer c = h.consumer()) {
                c.assign(List.of(op));
                c.seekToBeginning(List.of(op));
                while (!last.equals(want) && System.currentTimeMillis() < deadline) {
                    if (died.get() != null) throw new Harness.Failed("the Streams app died: " + Harness.describe(died.get()));
                    if (ks.state() == KafkaStreams.State.ERROR) throw new Harness.Failed("the Streams app is in state ERROR");
                    for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(300))) {
                        outputs++;
                        String w = Harness.bs(r.key());
                        long v = ByteBuffer.wrap(r.value()).getLong();
                        long prev = last.getOrDefault(w, 0L);
                        if (v != prev + 1 && problems.size() < 5)
                            problems.add(w + ": count " + v + " at offset " + r.offset() + " after " + prev);
                        last.put(w, v);
                    }
                }
            }
            if (!last.equals(want))
                throw new Harness.Failed("output counts " + last + " != input counts " + want + " (state " + ks.state() + ")");
            if (!problems.isEmpty()) throw new Harness.Failed("counts did not increase by one: " + problems);

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
                purged = Harness.waitFor(() -> {
                    try {
                        long sum = 0;
                        for (var e : a.listOffsets(Map.of(rps.get(0), OffsetSpec.earliest(), rps.get(1), OffsetSpec.earliest()))
                                .all().get(10, TimeUnit.SECONDS).values()) sum += e.offset();
                        return sum > 0 ? sum : null;
                    } catch (Exception e) { throw new RuntimeException(e); }
                }, Math.max(2000, deadline - System.currentTimeMillis()), "Streams to purge " + repartition + " (log start offset > 0)");
                ks.close(Duration.ofSeconds(20));  // commits the final offsets
                Map<TopicPartition, OffsetAndMetadata> committed = a.listConsumerGroupOffsets(app)
                        .partitionsToOffsetAndMetadata().get(20, TimeUnit.SECONDS);
                for (int part = 0; part < 2; part++) {
                    OffsetAndMetadata o = committed.get(new TopicPartition(in, part));
                    if (o == null || o.offset() != LINES / 2)
                        throw new Harness.Failed("committed offset of " + in + "-" + part + " is " + o + ", expected "
                                + LINES / 2 + "; committed: " + committed);
                }
            }
        } finally {
            ks.close(Duration.ofSeconds(20));
            ks.cleanUp();
            try (var paths = Files.walk(stateDir)) {
                paths.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
        return want.size() + " words from " + LINES + " lines counted exactly (" + outputs + " output records); "
                + "internal topic configs kept; " + purged + " repartition records purged; input offsets committed";
    }
}
