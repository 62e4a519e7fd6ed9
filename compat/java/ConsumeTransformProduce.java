import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The exactly-once loop of an application on Kafka's Java clients: a read_committed consumer
 * in GROUP (its group.protocol GROUP_PROTOCOL) reads INPUT, and for each batch polled a
 * transaction sends every value upper-cased to OUTPUT and the consumer's positions, with
 * consumer.groupMetadata(), through sendOffsetsToTransaction, then commits. The producer never
 * writes to INPUT: the topic ids of the offsets it sends come from the metadata it fetches for
 * them. Prints "OK <records>" once COUNT records went through.
 *
 * Usage: ConsumeTransformProduce BOOTSTRAP TRANSACTIONAL_ID INPUT OUTPUT GROUP GROUP_PROTOCOL COUNT
 */
public class ConsumeTransformProduce {
    public static void main(String[] args) {
        String bootstrap = args[0], txnId = args[1], input = args[2], output = args[3], group = args[4];
        String protocol = args[5];
        int count = Integer.parseInt(args[6]);
        Properties consumerProps = new Properties();
        consumerProps.put("bootstrap.servers", bootstrap);
        consumerProps.put("group.id", group);
        consumerProps.put("group.protocol", protocol);
        consumerProps.put("isolation.level", "read_committed");
        consumerProps.put("enable.auto.commit", "false");
        consumerProps.put("auto.offset.reset", "earliest");
        Properties producerProps = new Properties();
        producerProps.put("bootstrap.servers", bootstrap);
        producerProps.put("transactional.id", txnId);
        producerProps.put("request.timeout.ms", "15000");
        producerProps.put("max.block.ms", "120000");
        producerProps.put("delivery.timeout.ms", "120000");
        int done = 0;
        long deadline = System.currentTimeMillis() + 240_000;
        try (KafkaConsumer<String, String> consumer =
                     new KafkaConsumer<>(consumerProps, new StringDeserializer(), new StringDeserializer());
             KafkaProducer<String, String> producer =
                     new KafkaProducer<>(producerProps, new StringSerializer(), new StringSerializer())) {
            producer.initTransactions();
            consumer.subscribe(List.of(input));
            while (done < count && System.currentTimeMillis() < deadline) {
                ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(200));
                if (records.isEmpty()) {
                    continue;
                }
                producer.beginTransaction();
                Map<TopicPartition, OffsetAndMetadata> positions = new HashMap<>();
                for (ConsumerRecord<String, String> record : records) {
                    producer.send(new ProducerRecord<>(output, record.key(), record.value().toUpperCase()));
                    positions.put(new TopicPartition(record.topic(), record.partition()),
                                  new OffsetAndMetadata(record.offset() + 1));
                    done++;
                }
                producer.sendOffsetsToTransaction(positions, consumer.groupMetadata());
                producer.commitTransaction();
            }
        }
        System.out.println("OK " + done);
    }
}
