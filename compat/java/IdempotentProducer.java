import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Future;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Kafka's Java producer with its defaults (idempotent, acks=all) under the given client id:
 * sends `count` records to partition 0 of TOPIC and waits for every acknowledgement, for as
 * long as DELIVERY_TIMEOUT_MS allows. Prints "OK <count>" when all are acknowledged.
 *
 * Usage: IdempotentProducer BOOTSTRAP TOPIC COUNT CLIENT_ID DELIVERY_TIMEOUT_MS
 */
public class IdempotentProducer {
    public static void main(String[] args) throws Exception {
        String bootstrap = args[0], topic = args[1], clientId = args[3];
        int count = Integer.parseInt(args[2]);
        int deliveryTimeoutMs = Integer.parseInt(args[4]);
        Properties props = new Properties();
        props.put("bootstrap.servers", bootstrap);
        props.put("client.id", clientId);
        props.put("enable.idempotence", "true");
        props.put("delivery.timeout.ms", Integer.toString(deliveryTimeoutMs));
        props.put("request.timeout.ms", "10000");
        props.put("max.block.ms", Integer.toString(deliveryTimeoutMs));
        try (KafkaProducer<String, String> producer =
                     new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
            List<Future<RecordMetadata>> sent = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                sent.add(producer.send(new ProducerRecord<>(topic, 0, clientId, clientId + "-" + i)));
            }
            for (Future<RecordMetadata> future : sent) {
                future.get();
            }
        }
        System.out.println("OK " + count);
    }
}
