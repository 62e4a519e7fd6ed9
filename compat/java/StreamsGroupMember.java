import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.time.Duration;
import java.util.Arrays;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.ThreadMetadata;
import org.apache.kafka.streams.TaskMetadata;
import org.apache.kafka.streams.kstream.Produced;

/**
 * One instance of a Kafka Streams word count on the streams rebalance protocol (KIP-1071,
 * group.protocol=streams), for tests/test_streams_group_clients.py: args bootstrap
 * application-id input-topic output-topic state-dir. The topology (flatMapValues, groupBy,
 * count) has two subtopologies, a repartition topic and a changelog topic, which the group
 * coordinator must create. It prints "STATE s" at each state change, "TASKS 0_1,1_3"
 * whenever its active tasks change and "STANDBY 0_0" whenever its standby tasks do, and closes (leaving the group) when stdin says "quit" or
 * ends, then prints "CLOSED".
 */
public class StreamsGroupMember {
    public static void main(String[] args) throws Exception {
        Properties props = new Properties();
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, args[1]);
        props.put(StreamsConfig.GROUP_PROTOCOL_CONFIG, "streams");
        props.put(StreamsConfig.STATE_DIR_CONFIG, args[4]);
        props.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 1);
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 200);
        props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);  // every update reaches the output
        props.put(StreamsConfig.consumerPrefix("auto.offset.reset"), "earliest");
        props.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        props.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        StreamsBuilder builder = new StreamsBuilder();
        builder.<String, String>stream(args[2])
            .flatMapValues(line -> Arrays.asList(line.split(" ")))
            .groupBy((key, word) -> word)
            .count()
            .toStream()
            .to(args[3], Produced.with(Serdes.String(), Serdes.Long()));
        KafkaStreams streams = new KafkaStreams(builder.build(), props);
        CountDownLatch quit = new CountDownLatch(1);
        streams.setStateListener((now, before) -> {
            System.out.println("STATE " + now);
            System.out.flush();
        });
        streams.setUncaughtExceptionHandler(e -> {
            System.out.println("ERROR " + e);
            System.out.flush();
            return org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        });
        Thread stdin = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in))) {
                String line;
                while ((line = in.readLine()) != null && !line.trim().equals("quit")) {
                    // only "quit" means anything
                }
            } catch (Exception e) {
                // stdin closed: stop as for "quit"
            }
            quit.countDown();
        });
        stdin.setDaemon(true);
        stdin.start();
        streams.start();
        Set<String> last = null, lastStandby = null;
        while (quit.getCount() > 0) {
            Set<String> now = new TreeSet<>(), standby = new TreeSet<>();
            for (ThreadMetadata thread : streams.metadataForLocalThreads()) {
                for (TaskMetadata task : thread.activeTasks()) {
                    now.add(task.taskId().toString());
                }
                for (TaskMetadata task : thread.standbyTasks()) {
                    standby.add(task.taskId().toString());
                }
            }
            if (!now.equals(last)) {
                System.out.println("TASKS " + String.join(",", now));
                System.out.flush();
                last = now;
            }
            if (!standby.equals(lastStandby)) {
                System.out.println("STANDBY " + String.join(",", standby));
                System.out.flush();
                lastStandby = standby;
            }
            quit.await(100, java.util.concurrent.TimeUnit.MILLISECONDS);
        }
        streams.close(Duration.ofSeconds(30));
        System.out.println("CLOSED");
        System.out.flush();
    }
}
