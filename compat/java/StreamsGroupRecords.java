import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.List;

import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.MessageUtil;
import org.apache.kafka.coordinator.group.generated.StreamsGroupCurrentMemberAssignmentKey;
import org.apache.kafka.coordinator.group.generated.StreamsGroupCurrentMemberAssignmentValue;
import org.apache.kafka.coordinator.group.generated.StreamsGroupMemberMetadataKey;
import org.apache.kafka.coordinator.group.generated.StreamsGroupMemberMetadataValue;
import org.apache.kafka.coordinator.group.generated.StreamsGroupMetadataKey;
import org.apache.kafka.coordinator.group.generated.StreamsGroupMetadataValue;
import org.apache.kafka.coordinator.group.generated.StreamsGroupTargetAssignmentMemberKey;
import org.apache.kafka.coordinator.group.generated.StreamsGroupTargetAssignmentMemberValue;
import org.apache.kafka.coordinator.group.generated.StreamsGroupTargetAssignmentMetadataKey;
import org.apache.kafka.coordinator.group.generated.StreamsGroupTargetAssignmentMetadataValue;
import org.apache.kafka.coordinator.group.generated.StreamsGroupTopologyKey;
import org.apache.kafka.coordinator.group.generated.StreamsGroupTopologyValue;

/**
 * Kafka's own generated classes (kafka-group-coordinator 4.4.0) on the KIP-1071 streams
 * group records, for tests/test_streams_group_records.py. Each stdin line "key-hex
 * value-hex" is decoded as Kafka's coordinator loader would (key type prefix, then a
 * version-prefixed value) and written again with Kafka's serializer: the line printed is
 * "key-hex value-hex" of Kafka's bytes, so equal lines mean Kafka reads and writes the same
 * bytes. Then "KAFKA key-hex value-hex" lines give records Kafka writes itself, with tagged
 * fields josefk does not write (MetadataHash, ValidatedTopologyEpoch, LastAssignmentConfigs,
 * AssignmentTimestamp, AssignmentEpochs).
 */
public class StreamsGroupRecords {
    static final HexFormat HEX = HexFormat.of();

    static ApiMessage key(short type, ByteBufferAccessor in) {
        return switch (type) {
            case 17 -> new StreamsGroupMetadataKey(in, (short) 0);
            case 19 -> new StreamsGroupMemberMetadataKey(in, (short) 0);
            case 20 -> new StreamsGroupTargetAssignmentMetadataKey(in, (short) 0);
            case 21 -> new StreamsGroupTargetAssignmentMemberKey(in, (short) 0);
            case 22 -> new StreamsGroupCurrentMemberAssignmentKey(in, (short) 0);
            case 23 -> new StreamsGroupTopologyKey(in, (short) 0);
            default -> throw new IllegalArgumentException("key type " + type);
        };
    }

    static ApiMessage value(short type, ByteBufferAccessor in, short version) {
        return switch (type) {
            case 17 -> new StreamsGroupMetadataValue(in, version);
            case 19 -> new StreamsGroupMemberMetadataValue(in, version);
            case 20 -> new StreamsGroupTargetAssignmentMetadataValue(in, version);
            case 21 -> new StreamsGroupTargetAssignmentMemberValue(in, version);
            case 22 -> new StreamsGroupCurrentMemberAssignmentValue(in, version);
            case 23 -> new StreamsGroupTopologyValue(in, version);
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
        System.out.println("KAFKA " + line(new StreamsGroupMetadataKey().setGroupId("g"),
            new StreamsGroupMetadataValue().setEpoch(9).setMetadataHash(1234567890123L).setValidatedTopologyEpoch(0)
                .setLastAssignmentConfigs(List.of(new StreamsGroupMetadataValue.LastAssignmentConfig()
                    .setKey("num.standby.replicas").setValue("1")))));
        System.out.println("KAFKA " + line(new StreamsGroupTargetAssignmentMetadataKey().setGroupId("g"),
            new StreamsGroupTargetAssignmentMetadataValue().setAssignmentEpoch(9).setAssignmentTimestamp(42L)));
        System.out.println("KAFKA " + line(new StreamsGroupCurrentMemberAssignmentKey().setGroupId("g").setMemberId("m"),
            new StreamsGroupCurrentMemberAssignmentValue().setMemberEpoch(9).setPreviousMemberEpoch(8)
                .setState((byte) 3)
                .setActiveTasks(List.of(new StreamsGroupCurrentMemberAssignmentValue.TaskIds()
                    .setSubtopologyId("0").setPartitions(List.of(0, 3)).setAssignmentEpochs(List.of(7, 9))))
                .setStandbyTasks(List.of(new StreamsGroupCurrentMemberAssignmentValue.TaskIds()
                    .setSubtopologyId("1").setPartitions(List.of(2))))
                .setWarmupTasks(List.of())
                .setActiveTasksPendingRevocation(List.of(new StreamsGroupCurrentMemberAssignmentValue.TaskIds()
                    .setSubtopologyId("1").setPartitions(List.of(1)).setAssignmentEpochs(List.of(5))))
                .setStandbyTasksPendingRevocation(List.of())
                .setWarmupTasksPendingRevocation(List.of())));
        System.out.println("KAFKA " + line(new StreamsGroupMemberMetadataKey().setGroupId("g").setMemberId("m"),
            new StreamsGroupMemberMetadataValue().setInstanceId(null).setRackId("r").setClientId("c")
                .setClientHost("/h").setRebalanceTimeoutMs(300).setTopologyEpoch(2).setProcessId("p")
                .setUserEndpoint(new StreamsGroupMemberMetadataValue.Endpoint().setHost("localhost").setPort(65000))
                .setClientTags(List.of(new StreamsGroupMemberMetadataValue.KeyValue().setKey("az").setValue("1")))));
    }
}
