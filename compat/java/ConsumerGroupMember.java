import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * One member of a consumer group on the KIP-848 protocol (group.protocol=consumer), for
 * tests/test_consumer_group_clients.py: args bootstrap group topic [protocol]; with a
 * fourth argument "classic" it is a classic member (group.protocol=classic, heartbeats
 * every 500 ms), as tests/test_mixed_group_clients.py runs it. It prints
 * "ASSIGNMENT p,q" whenever its assignment changes and "RECORD value" for each record,
 * commits after each non-empty poll, and leaves the group (close) when stdin says "quit"
 * or ends, then prints "CLOSED".
 */
public class ConsumerGroupMember {
    public static void main(String[] args) throws Exception {
        Properties props = new Properties();
        props.put("bootstrap.servers", args[0]);
        props.put("group.id", args[1]);
        String protocol = args.length > 3 ? args[3] : "consumer";
        props.put("group.protocol", protocol);
        if (protocol.equals("classic")) {
            props.put("heartbeat.interval.ms", "500");
            props.put("session.timeout.ms", "10000");
        }
        props.put("auto.offset.reset", "earliest");
        props.put("enable.auto.commit", "false");
        props.put("key.deserializer", StringDeserializer.class.getName());
        props.put("value.deserializer", StringDeserializer.class.getName());
        AtomicBoolean stop = new AtomicBoolean(false);
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props)) {
            Thread stdin = new Thread(() -> {
                try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in))) {
                    String line;
                    while ((line = in.readLine()) != null && !line.trim().equals("quit")) {
                        // only "quit" means anything
                    }
                } catch (Exception e) {
                    // stdin closed: stop as for "quit"
                }
                stop.set(true);
                consumer.wakeup();
            });
            stdin.setDaemon(true);
            stdin.start();
            consumer.subscribe(List.of(args[2]));
            Set<Integer> last = null;
            while (!stop.get()) {
                try {
                    ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(100));
                    for (ConsumerRecord<String, String> r : records) {
                        System.out.println("RECORD " + r.value());
                    }
                    if (!records.isEmpty()) {
                        consumer.commitSync();
                    }
                    Set<Integer> now = new TreeSet<>();
                    for (TopicPartition tp : consumer.assignment()) {
                        now.add(tp.partition());
                    }
                    if (!now.equals(last)) {
                        System.out.println("ASSIGNMENT " + String.join(",", now.stream().map(String::valueOf).toList()));
                        last = now;
                    }
                    System.out.flush();
                } catch (WakeupException e) {
                    // stop requested
                }
            }
        }
        System.out.println("CLOSED");
        System.out.flush();
    }
}
