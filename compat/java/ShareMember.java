import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * A KIP-932 share group member of Harness (`--member G --topic T --group-protocol share`), for
 * compat/groups.py's share-* scenarios, in clients/common.py's MemberIO protocol: one line
 * {"share": [partition, offset, key, delivery count, action]} per record. KafkaShareConsumer is
 * kafka-clients 4's, so this class is compiled for the java-4 column only (Harness loads it by name).
 * --share-ack implicit (Kafka's default mode): each poll's records are accepted at the next poll.
 * --share-ack release-reject-hold (explicit mode): the first records polled are released, rejected or
 * left unacknowledged by offset (common.share_action), the acknowledgements committed, and the member
 * polls no more: it holds the rest until it is killed or closed.
 */
public final class ShareMember {
    public static void run(Harness h) {
        boolean holding = "release-reject-hold".equals(h.args.get("share-ack"));
        Properties p = h.base();
        p.put("group.id", h.args.get("member"));
        if (holding) p.put("share.acknowledgement.mode", "explicit");
        BlockingQueue<String> cmds = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
                for (String l; (l = r.readLine()) != null; ) cmds.add(l);
            } catch (IOException ignored) { }
            cmds.add("{\"close\": true}");
        });
        reader.setDaemon(true);
        reader.start();
        try (KafkaShareConsumer<byte[], byte[]> c = new KafkaShareConsumer<>(p, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            c.subscribe(List.of(h.args.get("topic")));
            boolean held = false;
            while (true) {
                if (held) {
                    Thread.sleep(100);
                } else {
                    ConsumerRecords<byte[], byte[]> records = c.poll(Duration.ofMillis(200));
                    for (ConsumerRecord<byte[], byte[]> m : records) {
                        String action = holding ? new String[] {"release", "reject", "hold"}[(int) (m.offset() % 3)] : "accept";
                        if (action.equals("release")) c.acknowledge(m, AcknowledgeType.RELEASE);
                        if (action.equals("reject")) c.acknowledge(m, AcknowledgeType.REJECT);
                        Harness.say("{\"share\": [" + m.partition() + ", " + m.offset() + ", " + Harness.json(Harness.bs(m.key()))
                                + ", " + m.deliveryCount().orElse((short) -1) + ", \"" + action + "\"]}");
                    }
                    if (holding && !records.isEmpty()) {
                        c.commitSync(Duration.ofSeconds(20));
                        Harness.say("{\"committed\": {}}");
                        held = true;
                    }
                }
                for (String cmd; (cmd = cmds.poll()) != null; ) {
                    if (cmd.contains("\"close\"")) {
                        c.close(Duration.ofSeconds(10));
                        Harness.say("{\"closed\": true}");
                        return;
                    }
                }
            }
        } catch (Throwable e) {
            Harness.say("{\"error\": " + Harness.json(Harness.describe(e)) + "}");
        }
    }
}
