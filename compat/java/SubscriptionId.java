import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.zip.CRC32C;

import org.apache.kafka.common.Uuid;
/**
 * Kafka's ClientMetricsManager.computeSubscriptionId, with Kafka's own Uuid and a java.util.HashSet
 * (tests/test_client_metrics.py checks josefk's against it):
 *   SubscriptionId <client instance id (Kafka's base64)> <push interval ms> <metric>...
 * prints the id, the set as Java prints it, and the instance id.
 */
public class SubscriptionId {
    public static void main(String[] a) {
        Uuid id = Uuid.fromString(a[0]);
        Set<String> metrics = new HashSet<>(Arrays.asList(a).subList(2, a.length));
        byte[] b = (metrics.toString() + a[1]).getBytes(StandardCharsets.UTF_8);
        CRC32C crc = new CRC32C(); // the same CRC-32C as Kafka's Crc32C
        crc.update(b, 0, b.length);
        System.out.println(((int) crc.getValue() ^ id.hashCode()) + " " + metrics + " " + id);
    }
}
