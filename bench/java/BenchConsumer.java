import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Load generator for bench/run.py: Apache Kafka's Java consumer reading partitions from the
 * beginning, which out-reads librdkafka behind a Python loop on small records.
 *
 * Usage: BenchConsumer BOOTSTRAP TOPIC PARTITIONS(comma-separated) EXPECTED
 * Reads the partitions once untimed, so the JIT has compiled the fetch path (a long-running
 * consumer's steady state, not the JVM's first second), prints "ready", waits for a line on
 * stdin, then reads them again from the beginning until EXPECTED records (or 30 s without
 * progress) and prints {"records": n, "bytes": b}.
 * Settings match bench/workers.py's librdkafka consumer: 50 MB per fetch, 10 MB per partition.
 */
public final class BenchConsumer {
    private static final long STALL_NANOS = 30_000_000_000L;

    public static void main(String[] args) throws Exception {
        Properties props = new Properties();
        props.put("bootstrap.servers", args[0]);
        props.put("group.id", "bench-java-" + ProcessHandle.current().pid());
        props.put("enable.auto.commit", "false");
        props.put("fetch.max.bytes", "52428800");
        props.put("max.partition.fetch.bytes", "10485760");
        props.put("max.poll.records", "100000");
        props.put("key.deserializer", ByteArrayDeserializer.class.getName());
        props.put("value.deserializer", ByteArrayDeserializer.class.getName());
        String topic = args[1];
        List<TopicPartition> partitions = new ArrayList<>();
        for (String p : args[2].split(",")) {
            partitions.add(new TopicPartition(topic, Integer.parseInt(p)));
        }
        long expected = Long.parseLong(args[3]);
        try (KafkaConsumer<byte[], byte[]> warmUp = new KafkaConsumer<>(props)) {
            warmUp.assign(partitions);
            warmUp.seekToBeginning(partitions);
            readAll(warmUp, expected);
        }
        // A fresh consumer for the timed read: the warm-up one may still have a long-polling
        // fetch in flight at the end of the log, which would delay the first fetch after a seek.
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props)) {
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            for (TopicPartition tp : partitions) {
                consumer.position(tp);  // resolve the start offsets before the clock starts
            }
            System.out.println("ready");
            System.out.flush();
            if (System.in.read() < 0) {
                return;
            }
            long[] read = readAll(consumer, expected);
            System.out.println("{\"records\": " + read[0] + ", \"bytes\": " + read[1] + "}");
            System.out.flush();
        }
    }

    /** Until `expected` records or 30 s without progress: {records, bytes}. */
    private static long[] readAll(KafkaConsumer<byte[], byte[]> consumer, long expected) {
        long records = 0;
        long bytes = 0;
        long lastProgress = System.nanoTime();
        while (records < expected && System.nanoTime() - lastProgress < STALL_NANOS) {
            ConsumerRecords<byte[], byte[]> batch = consumer.poll(Duration.ofMillis(100));
            if (batch.isEmpty()) {
                continue;
            }
            for (ConsumerRecord<byte[], byte[]> record : batch) {
                bytes += record.value().length;
            }
            records += batch.count();
            lastProgress = System.nanoTime();
        }
        return new long[] {records, bytes};
    }
}
