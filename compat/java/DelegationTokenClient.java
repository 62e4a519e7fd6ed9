import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ExpireDelegationTokenOptions;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.security.token.delegation.DelegationToken;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Kafka's Java client with a delegation token (KIP-48), over SASL_PLAINTEXT: an Admin
 * authenticated as USER (SASL/PLAIN) creates a token and finds it described; a producer and a
 * consumer group authenticate with the token (SCRAM-SHA-256, ScramLoginModule tokenauth="true")
 * and produce and consume `count` records; an Admin authenticated with the token may not create
 * another; the token is expired, after which it no longer authenticates.
 * Prints one line a step, then "OK <count>".
 *
 * Usage: DelegationTokenClient BOOTSTRAP USER PASSWORD TOPIC COUNT
 */
public class DelegationTokenClient {
    static Properties sasl(String bootstrap, String mechanism, String jaas) {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("security.protocol", "SASL_PLAINTEXT");
        p.put("sasl.mechanism", mechanism);
        p.put("sasl.jaas.config", jaas);
        return p;
    }

    static String cause(ExecutionException e) {
        return e.getCause().getClass().getSimpleName();
    }

    public static void main(String[] args) throws Exception {
        String bootstrap = args[0], user = args[1], password = args[2], topic = args[3];
        int count = Integer.parseInt(args[4]);
        Properties plain = sasl(bootstrap, "PLAIN", "org.apache.kafka.common.security.plain.PlainLoginModule "
                + "required username=\"" + user + "\" password=\"" + password + "\";");
        try (Admin admin = Admin.create(plain)) {
            DelegationToken token = admin.createDelegationToken().delegationToken().get();
            String tokenId = token.tokenInfo().tokenId();
            String hmac = Base64.getEncoder().encodeToString(token.hmac());
            System.out.println("created " + token.tokenInfo().owner());
            boolean described = admin.describeDelegationToken().delegationTokens().get().stream()
                    .anyMatch(t -> t.tokenInfo().tokenId().equals(tokenId));
            System.out.println("described " + described);

            Properties withToken = sasl(bootstrap, "SCRAM-SHA-256", "org.apache.kafka.common.security.scram."
                    + "ScramLoginModule required username=\"" + tokenId + "\" password=\"" + hmac
                    + "\" tokenauth=\"true\";");
            Properties p = new Properties();
            p.putAll(withToken);
            p.put("acks", "all");
            p.put("key.serializer", StringSerializer.class.getName());
            p.put("value.serializer", StringSerializer.class.getName());
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(p)) {
                for (int i = 0; i < count; i++) {
                    producer.send(new ProducerRecord<>(topic, "k" + i, "v" + i)).get();
                }
            }
            System.out.println("produced " + count);
            Properties c = new Properties();
            c.putAll(withToken);
            c.put("group.id", "token-" + topic);
            c.put("auto.offset.reset", "earliest");
            c.put("enable.auto.commit", "false");
            c.put("key.deserializer", StringDeserializer.class.getName());
            c.put("value.deserializer", StringDeserializer.class.getName());
            List<String> values = new ArrayList<>();
            try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(c)) {
                consumer.subscribe(List.of(topic));
                long deadline = System.currentTimeMillis() + 60_000;
                while (values.size() < count && System.currentTimeMillis() < deadline) {
                    for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                        values.add(r.value());
                    }
                }
                consumer.commitSync();
            }
            System.out.println("consumed " + values.size());
            try (Admin asToken = Admin.create(withToken)) {
                asToken.createDelegationToken().delegationToken().get();
                System.out.println("token created a token");
            } catch (ExecutionException e) {
                System.out.println("token may not create tokens: " + cause(e));
            }
            admin.expireDelegationToken(token.hmac(), new ExpireDelegationTokenOptions().expiryTimePeriodMs(-1))
                    .expiryTimestamp().get();
            System.out.println("expired");
            try (Admin asToken = Admin.create(withToken)) {
                asToken.describeCluster().clusterId().get();
                System.out.println("an expired token authenticated");
            } catch (ExecutionException e) {
                System.out.println("expired token refused: " + cause(e));
            }
            if (values.size() != count) {
                throw new IllegalStateException("consumed " + values.size() + " of " + count);
            }
        }
        System.out.println("OK " + count);
    }
}
