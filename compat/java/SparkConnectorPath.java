import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.*;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import org.apache.kafka.clients.admin.*;
import org.apache.kafka.clients.consumer.*;
import org.apache.kafka.clients.producer.*;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The calls Spark's Kafka connector (spark-sql-kafka-0-10, kafka-clients 3.9.x) makes, in
 * its order: the driver's AdminClient (describeTopics / listTopics, listOffsets earliest,
 * latest and by timestamp with the isolation level), then executor consumers
 * (group.id spark-kafka-source-...-executor, no auto commit, auto.offset.reset=none,
 * assign + seek + poll), and the sink's default producer (idempotent, acks=all).
 * Prints one JSON line per strategy and isolation level.
 */
public class SparkConnectorPath {
    static final int PER_PARTITION = 20;

    public static void main(String[] argv) throws Exception {
        String bootstrap = argv[0];
        String prefix = argv.length > 1 ? argv[1] : "spark-path";
        Properties base = new Properties();
        base.put("bootstrap.servers", bootstrap);
        base.put("request.timeout.ms", "15000");
        long start = System.currentTimeMillis();
        try (Admin admin = Admin.create(base)) {
            admin.createTopics(List.of(new NewTopic(prefix + "-a", 3, (short) 1), new NewTopic(prefix + "-b", 2, (short) 1)))
                .all().get(30, TimeUnit.SECONDS);
            sink(base, prefix + "-a", 3);
            sink(base, prefix + "-b", 2);
            Map<String, Collection<TopicPartition>> strategies = new LinkedHashMap<>();
            strategies.put("subscribe", partitions(admin, List.of(prefix + "-a")));
            Pattern pattern = Pattern.compile(Pattern.quote(prefix) + "-.*");
            List<String> matched = admin.listTopics().names().get(15, TimeUnit.SECONDS).stream()
                .filter(t -> pattern.matcher(t).matches()).sorted().toList();
            strategies.put("subscribePattern", partitions(admin, matched));
            strategies.put("assign", List.of(new TopicPartition(prefix + "-a", 0), new TopicPartition(prefix + "-b", 1)));
            for (var strategy : strategies.entrySet()) {
                for (IsolationLevel isolation : IsolationLevel.values()) {
                    String status = "pass", detail;
                    try {
                        detail = readLikeSpark(admin, base, strategy.getValue(), isolation, start);
                    } catch (Exception | AssertionError e) {
                        status = "fail";
                        detail = e.toString();
                    }
                    System.out.println("{\"strategy\":\"" + strategy.getKey() + "\",\"isolation\":\""
                        + isolation.toString().toLowerCase() + "\",\"status\":\"" + status + "\",\"detail\":\""
                        + detail.replace("\\", "/").replace("\"", "'") + "\"}");
                }
            }
        }
    }

    static void sink(Properties base, String topic, int partitions) throws Exception {
        Properties p = new Properties();
        p.putAll(base);
        p.put("key.serializer", ByteArraySerializer.class.getName());
        p.put("value.serializer", ByteArraySerializer.class.getName());
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
            for (int partition = 0; partition < partitions; partition++)
                for (int i = 0; i < PER_PARTITION; i++)
                    producer.send(new ProducerRecord<>(topic, partition, ("k" + i).getBytes(StandardCharsets.UTF_8),
                        ("v" + i).getBytes(StandardCharsets.UTF_8))).get(30, TimeUnit.SECONDS);
        }
    }

    static Collection<TopicPartition> partitions(Admin admin, List<String> topics) throws Exception {
        List<TopicPartition> out = new ArrayList<>();
        for (TopicDescription d : admin.describeTopics(topics).allTopicNames().get(15, TimeUnit.SECONDS).values())
            d.partitions().forEach(p -> out.add(new TopicPartition(d.name(), p.partition())));
        return out;
    }

    static Map<TopicPartition, Long> offsets(Admin admin, Collection<TopicPartition> tps, OffsetSpec spec,
                                             IsolationLevel isolation) throws Exception {
        Map<TopicPartition, OffsetSpec> query = new HashMap<>();
        tps.forEach(tp -> query.put(tp, spec));
        Map<TopicPartition, Long> out = new HashMap<>();
        admin.listOffsets(query, new ListOffsetsOptions(isolation)).all().get(15, TimeUnit.SECONDS)
            .forEach((tp, info) -> out.put(tp, info.offset()));
        return out;
    }

    static String readLikeSpark(Admin admin, Properties base, Collection<TopicPartition> tps, IsolationLevel isolation,
                                long start) throws Exception {
        Map<TopicPartition, Long> earliest = offsets(admin, tps, OffsetSpec.earliest(), isolation);
        Map<TopicPartition, Long> latest = offsets(admin, tps, OffsetSpec.latest(), isolation);
        Map<TopicPartition, Long> byTime = offsets(admin, tps, OffsetSpec.forTimestamp(start - 60_000), isolation);
        Properties c = new Properties();
        c.putAll(base);
        c.put("group.id", "spark-kafka-source-" + UUID.randomUUID() + "-" + tps.hashCode() + "-executor");
        c.put("enable.auto.commit", "false");
        c.put("auto.offset.reset", "none");
        c.put("isolation.level", isolation.toString().toLowerCase());
        c.put("key.deserializer", ByteArrayDeserializer.class.getName());
        c.put("value.deserializer", ByteArrayDeserializer.class.getName());
        int total = 0;
        for (TopicPartition tp : tps) {
            if (earliest.get(tp) != 0 || latest.get(tp) != PER_PARTITION || byTime.get(tp) != 0)
                throw new AssertionError(tp + ": offsets earliest " + earliest.get(tp) + " latest " + latest.get(tp)
                    + " by time " + byTime.get(tp));
            try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(c)) {
                consumer.assign(List.of(tp));
                consumer.seek(tp, earliest.get(tp));
                long next = earliest.get(tp);
                long deadline = System.currentTimeMillis() + 20_000;
                while (next < latest.get(tp)) {
                    if (System.currentTimeMillis() > deadline) throw new AssertionError(tp + ": stuck at offset " + next);
                    for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                        String value = new String(r.value(), StandardCharsets.UTF_8);
                        if (r.offset() != next || !value.equals("v" + next))
                            throw new AssertionError(tp + ": offset " + r.offset() + " value " + value + ", expected " + next);
                        next++;
                        total++;
                    }
                }
            }
        }
        return total + " records from " + tps.size() + " partitions";
    }
}
