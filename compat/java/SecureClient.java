import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Kafka's Java client (the one Spark's connector uses) over a secured listener: produces
 * `count` records, consumes them back in a consumer group and commits. Prints "OK <count>".
 *
 * With SECONDS, it keeps producing one record at a time for that long first, or until a line
 * arrives on stdin (to outlive SASL sessions: KIP-368 re-authentication; the caller ends it
 * once it saw what it waited for), and then consumes everything it produced.
 *
 * Usage: SecureClient BOOTSTRAP PROTOCOL MECHANISM USER PASSWORD CA_PEM TOPIC COUNT [SECONDS]
 * (for OAUTHBEARER: USER is the unsecured token's sub, PASSWORD its scope list, first character
 * the delimiter, as OAuthBearerUnsecuredLoginCallbackHandler reads unsecuredLoginListClaim_scope)
 */
public class SecureClient {
    public static void main(String[] args) throws Exception {
        String bootstrap = args[0], protocol = args[1], mechanism = args[2], user = args[3], password = args[4];
        String caPem = args[5], topic = args[6];
        int count = Integer.parseInt(args[7]);
        long producingUntil = System.currentTimeMillis() + (args.length > 8 ? Long.parseLong(args[8]) * 1000 : 0);
        Properties common = new Properties();
        common.put("bootstrap.servers", bootstrap);
        common.put("security.protocol", protocol);
        if (protocol.contains("SSL")) {
            common.put("ssl.truststore.type", "PEM");
            common.put("ssl.truststore.location", caPem);
        }
        if (protocol.startsWith("SASL")) {
            common.put("sasl.mechanism", mechanism);
            if (mechanism.equals("OAUTHBEARER")) {
                // Kafka's unsecured login: an unsigned JWS with sub USER and the scope list PASSWORD.
                common.put("sasl.jaas.config", "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule "
                        + "required unsecuredLoginStringClaim_sub=\"" + user + "\" unsecuredLoginListClaim_scope=\""
                        + password + "\";");
            } else {
                String module = mechanism.equals("PLAIN") ? "org.apache.kafka.common.security.plain.PlainLoginModule"
                        : "org.apache.kafka.common.security.scram.ScramLoginModule";
                common.put("sasl.jaas.config", module + " required username=\"" + user + "\" password=\"" + password
                        + "\";");
            }
        }
        Properties p = new Properties();
        p.putAll(common);
        p.put("acks", "all");
        p.put("key.serializer", StringSerializer.class.getName());
        p.put("value.serializer", StringSerializer.class.getName());
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p)) {
            for (int i = 0; i < count || (System.currentTimeMillis() < producingUntil && System.in.available() == 0);
                    i++) {
                producer.send(new ProducerRecord<>(topic, "k" + i, "v" + i)).get();
                count = Math.max(count, i + 1);
            }
        }
        Properties c = new Properties();
        c.putAll(common);
        c.put("group.id", "java-" + topic);
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
        for (int i = 0; i < count; i++) {
            if (!values.get(i).equals("v" + i)) {
                throw new IllegalStateException("record " + i + " is " + values.get(i));
            }
        }
        System.out.println("OK " + values.size());
    }
}
