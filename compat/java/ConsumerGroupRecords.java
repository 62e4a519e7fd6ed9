import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.List;

import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.MessageUtil;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupCurrentMemberAssignmentKey;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupCurrentMemberAssignmentValue;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupMemberMetadataKey;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupMemberMetadataValue;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupMetadataKey;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupMetadataValue;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupTargetAssignmentMemberKey;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupTargetAssignmentMemberValue;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupTargetAssignmentMetadataKey;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupTargetAssignmentMetadataValue;

/**
 * Kafka's own generated classes (kafka-group-coordinator 4.4.0) on the KIP-848 consumer
 * group records, for tests/test_consumer_group_records.py. Each stdin line "key-hex
 * value-hex" is decoded as Kafka's coordinator loader would (key type prefix, then a
 * version-prefixed value) and written again with Kafka's serializer: the line printed is
 * "key-hex value-hex" of Kafka's bytes, so equal lines mean Kafka reads and writes the same
 * bytes (the current assignment's AssignmentEpochs included). Then "KAFKA key-hex value-hex"
 * lines give records Kafka writes itself, with tagged fields josefk does not write
 * (MetadataHash, AssignmentTimestamp) and AssignmentEpochs.
 */
public class ConsumerGroupRecords {
    static final HexFormat HEX = HexFormat.of();
    static final Uuid TOPIC = Uuid.fromString("ABEiM0RVZneImaq7zN3u_w");

    static ApiMessage key(short type, ByteBufferAccessor in) {
        return switch (type) {
            case 3 -> new ConsumerGroupMetadataKey(in, (short) 0);
            case 5 -> new ConsumerGroupMemberMetadataKey(in, (short) 0);
            case 6 -> new ConsumerGroupTargetAssignmentMetadataKey(in, (short) 0);
            case 7 -> new ConsumerGroupTargetAssignmentMemberKey(in, (short) 0);
            case 8 -> new ConsumerGroupCurrentMemberAssignmentKey(in, (short) 0);
            default -> throw new IllegalArgumentException("key type " + type);
        };
    }

    static ApiMessage value(short type, ByteBufferAccessor in, short version) {
        return switch (type) {
            case 3 -> new ConsumerGroupMetadataValue(in, version);
            case 5 -> new ConsumerGroupMemberMetadataValue(in, version);
            case 6 -> new ConsumerGroupTargetAssignmentMetadataValue(in, version);
            case 7 -> new ConsumerGroupTargetAssignmentMemberValue(in, version);
            case 8 -> new ConsumerGroupCurrentMemberAssignmentValue(in, version);
            default -> throw new IllegalArgumentException("value type " + type);
        };
    }

    static String line(ApiMessage key, ApiMessage value) {
        return HEX.formatHex(MessageUtil.toCoordinatorTypePrefixedBytes(key)) + " "
            + HEX.formatHex(MessageUtil.toVersionPrefixedBytes((short) 0, value));
    }

    public static void main(String[] args) throws Exception {
        BufferedReader stdin = new BufferedReader(new InputStreamReader(System.in));
        for (String text = stdin.readLine(); text != null && !text.isBlank(); text = stdin.readLine()) {
            String[] parts = text.trim().split(" ");
            ByteBuffer k = ByteBuffer.wrap(HEX.parseHex(parts[0]));
            ByteBuffer v = ByteBuffer.wrap(HEX.parseHex(parts[1]));
            short type = k.getShort();
            ApiMessage key = key(type, new ByteBufferAccessor(k));
            ApiMessage value = value(type, new ByteBufferAccessor(v), v.getShort());
            if (k.hasRemaining() || v.hasRemaining()) {
                throw new IllegalStateException("bytes left over in " + text);
            }
            System.out.println(line(key, value));
        }
        System.out.println("KAFKA " + line(new ConsumerGroupMetadataKey().setGroupId("g"),
            new ConsumerGroupMetadataValue().setEpoch(9).setMetadataHash(1234567890123L)));
        System.out.println("KAFKA " + line(new ConsumerGroupTargetAssignmentMetadataKey().setGroupId("g"),
            new ConsumerGroupTargetAssignmentMetadataValue().setAssignmentEpoch(9).setAssignmentTimestamp(42L)));
        System.out.println("KAFKA " + line(new ConsumerGroupCurrentMemberAssignmentKey().setGroupId("g").setMemberId("m"),
            new ConsumerGroupCurrentMemberAssignmentValue().setMemberEpoch(9).setPreviousMemberEpoch(8)
                .setState((byte) 2)
                .setAssignedPartitions(List.of(new ConsumerGroupCurrentMemberAssignmentValue.TopicPartitions()
                    .setTopicId(TOPIC).setPartitions(List.of(0, 3)).setAssignmentEpochs(List.of(7, 9))))
                .setPartitionsPendingRevocation(List.of())));
    }
}
