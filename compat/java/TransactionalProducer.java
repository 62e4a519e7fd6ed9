import java.util.Map;
import java.util.Properties;

import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Kafka's Java producer running transactions as an application does: for each letter of
 * OUTCOMES ('c' commit, 'a' abort) a transaction that sends PER_TXN records "<txn>-<i>" to
 * partition 0 of TOPIC and sends offset (txn + 1) * PER_TXN of TOPIC-0 for GROUP to it, then
 * commits or aborts. The client picks the transaction protocol itself from the finalized
 * transaction.version (v2: no AddPartitionsToTxn / AddOffsetsToTxn, EndTxn v5). Prints
 * "OK <transactions>" at the end.
 *
 * Usage: TransactionalProducer BOOTSTRAP TRANSACTIONAL_ID TOPIC GROUP OUTCOMES PER_TXN
 */
public class TransactionalProducer {
    public static void main(String[] args) {
        String bootstrap = args[0], txnId = args[1], topic = args[2], group = args[3], outcomes = args[4];
        int perTxn = Integer.parseInt(args[5]);
        Properties props = new Properties();
        props.put("bootstrap.servers", bootstrap);
        props.put("transactional.id", txnId);
        props.put("request.timeout.ms", "15000");
        props.put("max.block.ms", "120000");
        props.put("delivery.timeout.ms", "120000");
        try (KafkaProducer<String, String> producer =
                     new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
            producer.initTransactions();
            TopicPartition tp = new TopicPartition(topic, 0);
            for (int txn = 0; txn < outcomes.length(); txn++) {
                producer.beginTransaction();
                for (int i = 0; i < perTxn; i++) {
                    producer.send(new ProducerRecord<>(topic, 0, null, txn + "-" + i));
                }
                producer.sendOffsetsToTransaction(Map.of(tp, new OffsetAndMetadata((long) (txn + 1) * perTxn)),
                                                  new ConsumerGroupMetadata(group));
                if (outcomes.charAt(txn) == 'c') {
                    producer.commitTransaction();
                } else {
                    producer.flush();  // the aborted records reach the log before the marker
                    producer.abortTransaction();
                }
            }
        }
        System.out.println("OK " + outcomes.length());
    }
}
