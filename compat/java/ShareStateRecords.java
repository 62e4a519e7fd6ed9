import java.util.List;

import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.protocol.MessageUtil;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.coordinator.share.generated.ShareSnapshotKey;
import org.apache.kafka.coordinator.share.generated.ShareSnapshotValue;
import org.apache.kafka.coordinator.share.generated.ShareUpdateKey;
import org.apache.kafka.coordinator.share.generated.ShareUpdateValue;

/**
 * Kafka 4.4's own __share_group_state records (kafka-share-coordinator's generated classes),
 * for tests/test_share_state_store.py to compare josefk's encoding with, byte for byte: args
 * group topicIdMostBits topicIdLeastBits partition. Prints "name hex" lines, and the state
 * partition of the key among 50 as Kafka's ShareCoordinatorService.partitionFor computes it.
 */
public class ShareStateRecords {
    static String hex(byte[] bytes) {
        StringBuilder out = new StringBuilder();
        for (byte b : bytes) {
            out.append(String.format("%02x", b));
        }
        return out.toString();
    }

    public static void main(String[] args) {
        String group = args[0];
        Uuid topic = new Uuid(Long.parseLong(args[1]), Long.parseLong(args[2]));
        int partition = Integer.parseInt(args[3]);
        System.out.println("snapshot-key " + hex(MessageUtil.toCoordinatorTypePrefixedBytes(
            new ShareSnapshotKey().setGroupId(group).setTopicId(topic).setPartition(partition))));
        System.out.println("update-key " + hex(MessageUtil.toCoordinatorTypePrefixedBytes(
            new ShareUpdateKey().setGroupId(group).setTopicId(topic).setPartition(partition))));
        ShareSnapshotValue snapshot = new ShareSnapshotValue().setSnapshotEpoch(1).setStateEpoch(2).setLeaderEpoch(3)
            .setStartOffset(40).setCreateTimestamp(5).setWriteTimestamp(5).setStateBatches(List.of(
                new ShareSnapshotValue.StateBatch().setFirstOffset(40).setLastOffset(41).setDeliveryState((byte) 0)
                    .setDeliveryCount((short) 2),
                new ShareSnapshotValue.StateBatch().setFirstOffset(42).setLastOffset(42).setDeliveryState((byte) 2)
                    .setDeliveryCount((short) 1)));
        System.out.println("snapshot-value " + hex(MessageUtil.toVersionPrefixedBytes((short) 0, snapshot)));
        ShareUpdateValue update = new ShareUpdateValue().setSnapshotEpoch(1).setLeaderEpoch(3).setStartOffset(41)
            .setDeliveryCompleteCount(1).setStateBatches(List.of(
                new ShareUpdateValue.StateBatch().setFirstOffset(41).setLastOffset(41).setDeliveryState((byte) 4)
                    .setDeliveryCount((short) 3)));
        System.out.println("update-value " + hex(MessageUtil.toVersionPrefixedBytes((short) 0, update)));
        String coordinatorKey = group + ":" + topic + ":" + partition;
        System.out.println("partition " + Utils.abs(coordinatorKey.hashCode()) % 50);
    }
}
