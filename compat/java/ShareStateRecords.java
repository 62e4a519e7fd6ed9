import java.util.List;

import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.protocol.MessageUtil;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.coordinator.group.generated.ShareGroupCurrentMemberAssignmentKey;
import org.apache.kafka.coordinator.group.generated.ShareGroupCurrentMemberAssignmentValue;
import org.apache.kafka.coordinator.group.generated.ShareGroupMemberMetadataKey;
import org.apache.kafka.coordinator.group.generated.ShareGroupMemberMetadataValue;
import org.apache.kafka.coordinator.group.generated.ShareGroupMetadataKey;
import org.apache.kafka.coordinator.group.generated.ShareGroupMetadataValue;
import org.apache.kafka.coordinator.group.generated.ShareGroupTargetAssignmentMemberKey;
import org.apache.kafka.coordinator.group.generated.ShareGroupTargetAssignmentMemberValue;
import org.apache.kafka.coordinator.group.generated.ShareGroupTargetAssignmentMetadataKey;
import org.apache.kafka.coordinator.group.generated.ShareGroupTargetAssignmentMetadataValue;
import org.apache.kafka.coordinator.share.generated.ShareSnapshotKey;
import org.apache.kafka.coordinator.share.generated.ShareSnapshotValue;
import org.apache.kafka.coordinator.share.generated.ShareUpdateKey;
import org.apache.kafka.coordinator.share.generated.ShareUpdateValue;

/**
 * Kafka 4.4's own share records (the generated classes of kafka-share-coordinator for
 * __share_group_state, of kafka-group-coordinator for a share group in __consumer_offsets),
 * for tests/test_share_state_store.py to compare josefk's encoding with, byte for byte: args
 * group topicIdMostBits topicIdLeastBits partition. Prints "name hex" lines, and the state
 * partition of the key among 50 as Kafka's ShareCoordinatorService.partitionFor computes it.
 * The share group records describe one member "m" (no rack, client "c" on "/h", subscribed to "t",
 * partitions 0 and 1 of the topic) of the group at epoch 5.
 */
public class ShareStateRecords {
    static String hex(byte[] bytes) {
        StringBuilder out = new StringBuilder();
        for (byte b : bytes) {
            out.append(String.format("%02x", b));
        }
        return out.toString();
    }

    static void printRecord(String name, byte[] key, byte[] value) {
        System.out.println(name + " " + hex(key) + ":" + hex(value));
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
        printRecord("group", MessageUtil.toCoordinatorTypePrefixedBytes(new ShareGroupMetadataKey().setGroupId(group)),
            MessageUtil.toVersionPrefixedBytes((short) 0, new ShareGroupMetadataValue().setEpoch(5)));
        printRecord("target", MessageUtil.toCoordinatorTypePrefixedBytes(
            new ShareGroupTargetAssignmentMetadataKey().setGroupId(group)),
            MessageUtil.toVersionPrefixedBytes((short) 0, new ShareGroupTargetAssignmentMetadataValue().setAssignmentEpoch(5)));
        printRecord("member", MessageUtil.toCoordinatorTypePrefixedBytes(
            new ShareGroupMemberMetadataKey().setGroupId(group).setMemberId("m")),
            MessageUtil.toVersionPrefixedBytes((short) 0, new ShareGroupMemberMetadataValue().setRackId(null).setClientId("c")
                .setClientHost("/h").setSubscribedTopicNames(List.of("t"))));
        printRecord("target-member", MessageUtil.toCoordinatorTypePrefixedBytes(
            new ShareGroupTargetAssignmentMemberKey().setGroupId(group).setMemberId("m")),
            MessageUtil.toVersionPrefixedBytes((short) 0, new ShareGroupTargetAssignmentMemberValue().setTopicPartitions(
                List.of(new ShareGroupTargetAssignmentMemberValue.TopicPartition().setTopicId(topic)
                    .setPartitions(List.of(0, 1))))));
        printRecord("current", MessageUtil.toCoordinatorTypePrefixedBytes(
            new ShareGroupCurrentMemberAssignmentKey().setGroupId(group).setMemberId("m")),
            MessageUtil.toVersionPrefixedBytes((short) 0, new ShareGroupCurrentMemberAssignmentValue().setMemberEpoch(5)
                .setPreviousMemberEpoch(4).setState((byte) 0).setAssignedPartitions(List.of(
                    new ShareGroupCurrentMemberAssignmentValue.TopicPartitions().setTopicId(topic)
                        .setPartitions(List.of(0, 1))))));
        String coordinatorKey = group + ":" + topic + ":" + partition;
        System.out.println("partition " + Utils.abs(coordinatorKey.hashCode()) % 50);
    }
}
