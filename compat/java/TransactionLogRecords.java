import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.Set;
import java.util.TreeSet;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.MessageUtil;
import org.apache.kafka.coordinator.transaction.TransactionLog;
import org.apache.kafka.coordinator.transaction.TransactionMetadata;
import org.apache.kafka.coordinator.transaction.TransactionState;
import org.apache.kafka.coordinator.transaction.generated.TransactionLogValue;
import org.apache.kafka.server.common.TransactionVersion;

/**
 * Kafka's own classes (kafka-transaction-coordinator 4.4.0) on __transaction_state records,
 * for tests/test_transaction_coordinator_v2.py. Each stdin line "key-hex value-hex" is read
 * with Kafka's loader (TransactionLog.read, which must find a record) and its generated
 * TransactionLogValue; printed are "READ <tid> <version> <producer id> <previous id> <next id>
 * <epoch> <state> <client version> <start> <last update> <topic-partition,...>" and
 * "BYTES <value-hex>", the value written again by Kafka's serializer at its version. Then
 * "KAFKA key-hex value-hex": a PrepareCommit that rotates its producer id, written by Kafka's
 * TransactionLog.valueToBytes at transaction.version 2.
 */
public class TransactionLogRecords {
    static final HexFormat HEX = HexFormat.of();

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        String line;
        while ((line = in.readLine()) != null && !line.isBlank()) {
            String[] parts = line.trim().split(" ");
            byte[] key = HEX.parseHex(parts[0]), value = HEX.parseHex(parts[1]);
            TransactionLog.ReadResult read = TransactionLog.read(ByteBuffer.wrap(key), ByteBuffer.wrap(value));
            if (!(read instanceof TransactionLog.TxnRecord record)) {
                throw new IllegalStateException("not a transaction record: " + read);
            }
            ByteBuffer buffer = ByteBuffer.wrap(value);
            short version = buffer.getShort();
            TransactionLogValue v = new TransactionLogValue(new ByteBufferAccessor(buffer), version);
            Set<String> partitions = new TreeSet<>();
            for (TopicPartition tp : record.metadata().topicPartitions()) {
                partitions.add(tp.topic() + "-" + tp.partition());
            }
            System.out.println(String.join(" ", "READ", record.transactionId(), Short.toString(version),
                    Long.toString(v.producerId()), Long.toString(v.previousProducerId()),
                    Long.toString(v.nextProducerId()), Short.toString(v.producerEpoch()),
                    record.metadata().state().name(), Short.toString(v.clientTransactionVersion()),
                    Long.toString(v.transactionStartTimestampMs()),
                    Long.toString(v.transactionLastUpdateTimestampMs()), String.join(",", partitions)));
            System.out.println("BYTES " + HEX.formatHex(MessageUtil.toVersionPrefixedBytes(version, v)));
        }
        TransactionMetadata rotating = new TransactionMetadata("kafka-txn", 7000L, 6000L, 7001L, Short.MAX_VALUE,
                (short) (Short.MAX_VALUE - 1), 60000, TransactionState.PREPARE_COMMIT,
                Set.of(new TopicPartition("orders", 0)), 1000L, 2000L, TransactionVersion.TV_2);
        System.out.println("KAFKA " + HEX.formatHex(TransactionLog.keyToBytes("kafka-txn")) + " "
                + HEX.formatHex(TransactionLog.valueToBytes(rotating.prepareNoTransit(), TransactionVersion.TV_2)));
    }
}
