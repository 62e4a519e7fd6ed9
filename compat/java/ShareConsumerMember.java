import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * One member of a KIP-932 share group (KafkaShareConsumer, kafka-clients 4.4), for
 * tests/test_share_group_clients.py: args bootstrap group topic mode. It prints
 * "POLLED" after each poll and "RECORD value deliveryCount" for each record, and
 * acknowledges explicitly (share.acknowledgement.mode=explicit) as `mode` says:
 * - accept: accept every record;
 * - release-once: release a record at its first delivery, accept it at the next;
 * - hold: acknowledge nothing and stop polling after the first record, so that its records
 *   stay acquired until it is killed (their locks run out) or told to quit.
 * It closes (leaving the group) when stdin says "quit" or ends, then prints "CLOSED".
 */
public class ShareConsumerMember {
    public static void main(String[] args) throws Exception {
        Properties props = new Properties();
        props.put("bootstrap.servers", args[0]);
        props.put("group.id", args[1]);
        props.put("share.acknowledgement.mode", "explicit");
        props.put("key.deserializer", StringDeserializer.class.getName());
        props.put("value.deserializer", StringDeserializer.class.getName());
        String mode = args[3];
        AtomicBoolean stop = new AtomicBoolean(false);
        try (KafkaShareConsumer<String, String> consumer = new KafkaShareConsumer<>(props)) {
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
            boolean holding = false;
            while (!stop.get()) {
                if (holding) {
                    Thread.sleep(100);
                    continue;
                }
                try {
                    ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(200));
                    for (ConsumerRecord<String, String> r : records) {
                        short delivery = r.deliveryCount().orElse((short) -1);
                        System.out.println("RECORD " + r.value() + " " + delivery);
                        if (mode.equals("hold")) {
                            holding = true;
                        } else if (mode.equals("release-once") && delivery == 1) {
                            consumer.acknowledge(r, AcknowledgeType.RELEASE);
                        } else {
                            consumer.acknowledge(r, AcknowledgeType.ACCEPT);
                        }
                    }
                    if (!records.isEmpty() && !holding) {
                        consumer.commitSync();
                    }
                    System.out.println("POLLED");
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
