import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * A KafkaShareConsumer (kafka-clients 4.4) for tests/test_share_failover.py: args bootstrap
 * group topic. Explicit acknowledgement: it accepts every record, except that a record whose
 * value starts with "h" at its first delivery is held (not acknowledged) and polling stops,
 * so those records stay acquired, until stdin says "resume": then they are released and
 * polling goes on. After each acknowledgement it commits synchronously and prints
 * "ACKED ok|failed value..." (ok: the broker confirmed every partition's acknowledgement).
 * It prints "RECORD value deliveryCount" per record and "HOLDING" when it stops; "quit" (or
 * the end of stdin) closes it, then it prints "CLOSED".
 */
public class ShareFailoverMember {
    public static void main(String[] args) throws Exception {
        Properties props = new Properties();
        props.put("bootstrap.servers", args[0]);
        props.put("group.id", args[1]);
        props.put("share.acknowledgement.mode", "explicit");
        props.put("key.deserializer", StringDeserializer.class.getName());
        props.put("value.deserializer", StringDeserializer.class.getName());
        AtomicBoolean stop = new AtomicBoolean(false);
        AtomicBoolean resume = new AtomicBoolean(false);
        try (KafkaShareConsumer<String, String> consumer = new KafkaShareConsumer<>(props)) {
            Thread stdin = new Thread(() -> {
                try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in))) {
                    String line;
                    while ((line = in.readLine()) != null && !line.trim().equals("quit")) {
                        if (line.trim().equals("resume")) {
                            resume.set(true);
                        }
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
            List<ConsumerRecord<String, String>> held = new ArrayList<>();
            while (!stop.get()) {
                try {
                    if (!held.isEmpty()) {
                        if (!resume.get()) {
                            Thread.sleep(100);
                            continue;
                        }
                        List<String> values = new ArrayList<>();
                        for (ConsumerRecord<String, String> r : held) {
                            consumer.acknowledge(r, AcknowledgeType.RELEASE);
                            values.add(r.value());
                        }
                        held.clear();
                        commit(consumer, "RELEASED", values);
                    }
                    ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(200));
                    List<String> accepted = new ArrayList<>();
                    for (ConsumerRecord<String, String> r : records) {
                        short delivery = r.deliveryCount().orElse((short) -1);
                        System.out.println("RECORD " + r.value() + " " + delivery);
                        if (r.value().startsWith("h") && delivery == 1 && !resume.get()) {
                            held.add(r);
                        } else {
                            consumer.acknowledge(r, AcknowledgeType.ACCEPT);
                            accepted.add(r.value());
                        }
                    }
                    if (!accepted.isEmpty()) {
                        commit(consumer, "ACKED", accepted);
                    }
                    if (!held.isEmpty()) {
                        System.out.println("HOLDING");
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

    private static void commit(KafkaShareConsumer<String, String> consumer, String what, List<String> values) {
        String outcome = "ok";
        try {
            Map<TopicIdPartition, Optional<KafkaException>> result = consumer.commitSync();
            for (Optional<KafkaException> e : result.values()) {
                if (e.isPresent()) {
                    outcome = "failed";
                }
            }
        } catch (KafkaException e) {
            outcome = "failed";
        }
        System.out.println(what + " " + outcome + " " + String.join(" ", values));
        System.out.flush();
    }
}
