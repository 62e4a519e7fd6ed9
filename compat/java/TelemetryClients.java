import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The Java client's side of josefk's KIP-714 and KIP-966 tests (tests/test_telemetry_clients.py).
 *
 *   describe <bootstrap> <topic>...    Admin.describeTopics (DescribeTopicPartitions on a broker
 *                                      that advertises it): one line per partition
 *   produce <bootstrap> <topic> <id>   a producer (enable.metrics.push defaults true) sending a
 *                                      record every 50 ms until stdin closes, then closing, which
 *                                      pushes its last metrics with terminating set
 */
public class TelemetryClients {
    public static void main(String[] args) throws Exception {
        if (args[0].equals("describe")) {
            describe(args[1], List.of(args).subList(2, args.length));
        } else {
            produce(args[1], args[2], args[3]);
        }
    }

    static void describe(String bootstrap, List<String> topics) throws Exception {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (Admin admin = Admin.create(props)) {
            DescribeTopicsOptions options = new DescribeTopicsOptions().partitionSizeLimitPerResponse(3)
                .includeAuthorizedOperations(true);
            for (TopicDescription d : admin.describeTopics(topics, options).allTopicNames().get().values()) {
                for (TopicPartitionInfo p : d.partitions()) {
                    System.out.println(d.name() + " " + p.partition() + " leader=" + p.leader().id()
                        + " replicas=" + p.replicas().size() + " isr=" + p.isr().size()
                        + " elr=" + p.elr() + " ops=" + d.authorizedOperations().size());
                }
            }
        }
    }

    static void produce(String bootstrap, String topic, String clientId) throws Exception {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        AtomicBoolean done = new AtomicBoolean();
        Thread stdin = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in))) {
                while (in.readLine() != null) {
                    // until the test closes stdin
                }
            } catch (Exception e) {
                // closed
            }
            done.set(true);
        });
        stdin.setDaemon(true);
        stdin.start();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props)) {
            System.out.println("instance " + producer.clientInstanceId(java.time.Duration.ofSeconds(30)));
            System.out.flush();
            while (!done.get()) {
                producer.send(new ProducerRecord<>(topic, new byte[100])).get();
                Thread.sleep(50);
            }
        }
        System.out.println("closed");
    }
}
