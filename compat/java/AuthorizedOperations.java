import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.DescribeConsumerGroupsOptions;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.acl.AclOperation;

/**
 * KIP-430 through Kafka's Java AdminClient: the operations the principal may do on a topic,
 * a consumer group and the cluster, as describeTopics, describeConsumerGroups and
 * describeCluster report them with includeAuthorizedOperations(true). Prints one line each,
 * "topic NAME OPS", "group NAME OPS", "cluster OPS", OPS sorted and comma-separated
 * ("null" when the broker left the field out).
 *
 * Usage: AuthorizedOperations BOOTSTRAP USER PASSWORD TOPIC GROUP   (SASL_PLAINTEXT, PLAIN)
 */
public class AuthorizedOperations {
    public static void main(String[] args) throws Exception {
        String bootstrap = args[0], user = args[1], password = args[2], topic = args[3], group = args[4];
        Properties props = new Properties();
        props.put("bootstrap.servers", bootstrap);
        props.put("security.protocol", "SASL_PLAINTEXT");
        props.put("sasl.mechanism", "PLAIN");
        props.put("sasl.jaas.config", "org.apache.kafka.common.security.plain.PlainLoginModule required username=\""
                + user + "\" password=\"" + password + "\";");
        try (Admin admin = Admin.create(props)) {
            TopicDescription described = admin.describeTopics(List.of(topic),
                    new DescribeTopicsOptions().includeAuthorizedOperations(true)).allTopicNames().get().get(topic);
            System.out.println("topic " + topic + " " + names(described.authorizedOperations()));
            ConsumerGroupDescription g = admin.describeConsumerGroups(List.of(group),
                    new DescribeConsumerGroupsOptions().includeAuthorizedOperations(true)).all().get().get(group);
            System.out.println("group " + group + " " + names(g.authorizedOperations()));
            Set<AclOperation> cluster = admin.describeCluster(
                    new DescribeClusterOptions().includeAuthorizedOperations(true)).authorizedOperations().get();
            System.out.println("cluster " + names(cluster));
        }
    }

    private static String names(Set<AclOperation> operations) {
        if (operations == null) {
            return "null";
        }
        Set<String> sorted = new TreeSet<>();
        operations.forEach(op -> sorted.add(op.name()));
        return String.join(",", sorted);
    }
}
