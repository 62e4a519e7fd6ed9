import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.*;
import java.util.concurrent.*;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.kafka.clients.admin.*;
import org.apache.kafka.clients.consumer.*;
import org.apache.kafka.clients.producer.*;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/** Compat scenarios for Apache Kafka's Java client, defaults (idempotent, acks=all). The same source is compiled
 *  against kafka-clients 3.9.2 (the `java` column) and 4.4.0 (`java-4`, with kafka-streams for streams-wordcount and streams-eos):
 *  it uses only API present in both. */
public class Harness {
    static final String[] CODECS = {"none", "gzip", "snappy", "lz4", "zstd"};

    static class NotApplicable extends RuntimeException { NotApplicable(String m) { super(m); } }
    static class Failed extends RuntimeException { Failed(String m) { super(m); } }

    /** A record as produced or consumed; bytes compared as strings (all test data is UTF-8). */
    record Rec(String key, String value, List<String[]> headers, long ts, long offset) {
        String headersStr() {
            StringBuilder b = new StringBuilder("[");
            for (String[] h : headers) b.append("(").append(h[0]).append(",").append(h[1]).append(")");
            return b.append("]").toString();
        }
    }

    final Map<String, String> args = new HashMap<>();
    final Map<String, String> results = new HashMap<>();
    String bootstrap, prefix;
    int n;
    long tsBase;

    static String bs(byte[] b) { return b == null ? null : new String(b, StandardCharsets.UTF_8); }
    static byte[] by(String s) { return s == null ? null : s.getBytes(StandardCharsets.UTF_8); }

    static List<Rec> expected(String tag, int n, long tsBase) {
        List<Rec> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            List<String[]> h = List.of(new String[]{"idx", Integer.toString(i)}, new String[]{"tag", tag});
            out.add(new Rec(tag + "-key-" + i, tag + "-value-" + i + "-" + "abcdefghij".repeat(i % 4 + 1), h,
                    tsBase + i * 1000L, -1));
        }
        return out;
    }

    String topic(String scenario) { return prefix + "-" + scenario.replace("consume-", "produce-"); }

    void require(String scenario) {
        String st = results.get(scenario);
        if ("n/a".equals(st)) throw new NotApplicable(scenario + " is n/a");
        if (!"pass".equals(st)) throw new Failed("not run: prerequisite " + scenario + " is " + (st == null ? "not run" : st));
    }

    Properties base() {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("request.timeout.ms", "15000");
        p.put("default.api.timeout.ms", "20000");
        return p;
    }

    static final Duration CLOSE = Duration.ofSeconds(5);

    /** Producer/consumer/admin whose try-with-resources close() is bounded (the defaults can wait forever). */
    static class Producer extends KafkaProducer<byte[], byte[]> {
        Producer(Properties p) { super(p, new ByteArraySerializer(), new ByteArraySerializer()); }
        @Override public void close() { close(CLOSE); }
    }

    static class Consumer extends KafkaConsumer<byte[], byte[]> {
        Consumer(Properties p) { super(p, new ByteArrayDeserializer(), new ByteArrayDeserializer()); }
        @Override public void close() { close(CLOSE); }
    }

    static class BoundedAdmin implements AutoCloseable {
        final Admin a;
        BoundedAdmin(Admin a) { this.a = a; }
        @Override public void close() { a.close(CLOSE); }
    }

    Producer producer(String codec) {
        Properties p = base();
        p.put("compression.type", codec);
        p.put("linger.ms", "20");
        p.put("max.block.ms", "20000");
        p.put("delivery.timeout.ms", "30000");
        return new Producer(p);
    }

    Consumer consumer() {
        Properties p = base();
        p.put("enable.auto.commit", "false");
        p.put("auto.offset.reset", "earliest");
        return new Consumer(p);
    }

    BoundedAdmin admin() { return new BoundedAdmin(Admin.create(base())); }

    static <T> T waitFor(java.util.function.Supplier<T> f, long timeoutMs, String what) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMs;
        Object last = null;
        while (System.currentTimeMillis() < deadline) {
            try {
                T v = f.get();
                if (v != null) return v;
            } catch (RuntimeException e) { last = e; }
            Thread.sleep(200);
        }
        throw new Failed("timed out waiting for " + what + " (last: " + last + ")");
    }

    // ---- scenarios ----

    String adminCreate() throws Exception {
        String t = topic("admin");
        try (BoundedAdmin b = admin()) {
            Admin a = b.a;
            a.createTopics(List.of(new NewTopic(t, 3, (short) 1))).all().get(20, TimeUnit.SECONDS);
            TopicDescription d = waitFor(() -> {
                try { return a.describeTopics(List.of(t)).allTopicNames().get(10, TimeUnit.SECONDS).get(t); }
                catch (Exception e) { throw new RuntimeException(e); }
            }, 15000, "describeTopics(" + t + ")");
            if (d.partitions().size() != 3) throw new Failed("created " + t + " with 3 partitions, describeTopics shows " + d.partitions().size());
        }
        return t + ": 3 partitions";
    }

    String adminDelete() throws Exception {
        require("admin-create");
        String t = topic("admin");
        try (BoundedAdmin b = admin()) {
            Admin a = b.a;
            a.deleteTopics(List.of(t)).all().get(20, TimeUnit.SECONDS);
            waitFor(() -> {
                try { return a.listTopics().names().get(10, TimeUnit.SECONDS).contains(t) ? null : true; }
                catch (Exception e) { throw new RuntimeException(e); }
            }, 15000, t + " to disappear from listTopics");
        }
        return t + " deleted";
    }

    String autoCreate() throws Exception {
        String t = topic("auto");
        int parts;
        try (Producer p = producer("none")) {
            RecordMetadata md = p.send(new ProducerRecord<>(t, 0, by("auto-key"), by("auto-value"))).get(20, TimeUnit.SECONDS);
            if (md.offset() != 0) throw new Failed("first record in new topic got offset " + md.offset());
            parts = p.partitionsFor(t).size();
        }
        int want = Integer.parseInt(args.getOrDefault("auto-partitions", "0"));
        if (want > 0 && parts != want) throw new Failed("auto-created " + t + " has " + parts + " partitions, expected num.partitions=" + want);
        return t + ": offset 0, " + parts + " partition(s)";
    }

    String produce(String codec) throws Exception {
        String t = topic("produce-" + codec);
        List<Long> offsets = new ArrayList<>();
        try (Producer p = producer(codec)) {
            List<Future<RecordMetadata>> futs = new ArrayList<>();
            for (Rec r : expected(prefix, n, tsBase)) {
                List<Header> hs = new ArrayList<>();
                for (String[] h : r.headers()) hs.add(new RecordHeader(h[0], by(h[1])));
                futs.add(p.send(new ProducerRecord<>(t, 0, r.ts(), by(r.key()), by(r.value()), hs)));
            }
            p.flush();
            for (Future<RecordMetadata> f : futs) offsets.add(f.get(20, TimeUnit.SECONDS).offset());
        }
        for (int i = 0; i < n; i++)
            if (offsets.get(i) != i) throw new Failed("acked offsets " + offsets + ", expected 0.." + (n - 1));
        return n + " records to " + t;
    }

    List<Rec> fetchAll(String t, int want) {
        List<Rec> got = new ArrayList<>();
        TopicPartition tp = new TopicPartition(t, 0);
        try (Consumer c = consumer()) {
            c.assign(List.of(tp));
            c.seek(tp, 0);
            long deadline = System.currentTimeMillis() + 20000;
            while (got.size() < want && System.currentTimeMillis() < deadline) {
                for (ConsumerRecord<byte[], byte[]> m : c.poll(Duration.ofMillis(500))) {
                    List<String[]> hs = new ArrayList<>();
                    for (Header h : m.headers()) hs.add(new String[]{h.key(), bs(h.value())});
                    long ts = m.timestampType() == TimestampType.NO_TIMESTAMP_TYPE ? -1 : m.timestamp();
                    got.add(new Rec(bs(m.key()), bs(m.value()), hs, ts, m.offset()));
                }
            }
        }
        return got;
    }

    /** headers: "1" exact, "0" none, "either"; ts: exact | none | range:LO:HI. */
    static String check(List<Rec> got, List<Rec> exp, String headers, String ts) {
        if (got.size() != exp.size())
            throw new Failed("expected " + exp.size() + " records, got " + got.size() + (got.isEmpty() ? "" : ": first " + got.get(0)));
        long lo = 0, hi = 0;
        if (ts.startsWith("range:")) { String[] p = ts.split(":"); lo = Long.parseLong(p[1]); hi = Long.parseLong(p[2]); }
        for (int i = 0; i < got.size(); i++) {
            Rec g = got.get(i), e = exp.get(i);
            String w = "record " + i + ": ";
            if (g.offset() != i) throw new Failed(w + "offset " + g.offset() + " != " + i);
            if (!Objects.equals(g.key(), e.key())) throw new Failed(w + "key " + g.key() + " != " + e.key());
            if (!Objects.equals(g.value(), e.value())) throw new Failed(w + "value " + g.value() + " != " + e.value());
            boolean hExact = g.headersStr().equals(e.headersStr()), hNone = g.headers().isEmpty();
            if (headers.equals("1") && !hExact || headers.equals("0") && !hNone || headers.equals("either") && !(hExact || hNone))
                throw new Failed(w + "headers " + g.headersStr() + " != " + (headers.equals("0") ? "[]" : e.headersStr()));
            if (ts.equals("exact") && g.ts() != e.ts()) throw new Failed(w + "timestamp " + g.ts() + " != " + e.ts());
            if (ts.equals("none") && g.ts() != -1) throw new Failed(w + "timestamp " + g.ts() + ", expected none (-1)");
            if (ts.startsWith("range:") && (g.ts() < lo || g.ts() > hi)) throw new Failed(w + "timestamp " + g.ts() + " not in [" + lo + "," + hi + "]");
        }
        return got.size() + " records match (headers " + headers + ", timestamps " + ts.split(":")[0] + ")";
    }

    String consume(String codec) {
        require("produce-" + codec);
        return check(fetchAll(topic("produce-" + codec), n), expected(prefix, n, tsBase), "1", "exact");
    }

    String offsets(String which) throws Exception {
        require("produce-none");
        TopicPartition tp = new TopicPartition(topic("produce-none"), 0);
        long want = which.equals("earliest") ? 0 : n;
        long got;
        try (Consumer c = consumer()) {
            got = (which.equals("earliest") ? c.beginningOffsets(List.of(tp)) : c.endOffsets(List.of(tp))).get(tp);
        }
        if (got != want) throw new Failed("consumer " + which + " offset " + got + ", expected " + want);
        try (BoundedAdmin b = admin()) {
            Admin a = b.a;  // the Admin path Spark's offset reader uses
            OffsetSpec spec = which.equals("earliest") ? OffsetSpec.earliest() : OffsetSpec.latest();
            long ag = a.listOffsets(Map.of(tp, spec)).partitionResult(tp).get(20, TimeUnit.SECONDS).offset();
            if (ag != want) throw new Failed("Admin.listOffsets " + which + " offset " + ag + ", expected " + want);
        }
        return which + "=" + got + " (consumer and Admin.listOffsets)";
    }

    String offsetsByTime() throws Exception {
        require("produce-none");
        TopicPartition tp = new TopicPartition(topic("produce-none"), 0);
        List<Long> ts = new ArrayList<>();
        for (Rec r : expected(prefix, n, tsBase)) ts.add(r.ts());
        long[] qs = {ts.get(0) - 10000, ts.get(3), ts.get(3) - 1, ts.get(n - 1), ts.get(n - 1) + 10000};
        StringBuilder out = new StringBuilder();
        try (Consumer c = consumer(); BoundedAdmin b = admin()) {
            Admin a = b.a;
            for (long q : qs) {
                Integer want = null;
                for (int i = 0; i < n; i++) if (ts.get(i) >= q) { want = i; break; }
                OffsetAndTimestamp r = c.offsetsForTimes(Map.of(tp, q)).get(tp);
                Long got = r == null ? null : r.offset();
                if (!Objects.equals(got, want == null ? null : (long) want) || (r != null && r.timestamp() != ts.get(want)))
                    throw new Failed("offsetsForTimes(" + q + ") -> " + r + ", expected offset " + want + (want == null ? "" : " timestamp " + ts.get(want)));
                ListOffsetsResult.ListOffsetsResultInfo ai = a.listOffsets(Map.of(tp, OffsetSpec.forTimestamp(q))).partitionResult(tp).get(20, TimeUnit.SECONDS);
                long aw = want == null ? -1 : want;
                if (ai.offset() != aw) throw new Failed("Admin.listOffsets(forTimestamp " + q + ") -> " + ai + ", expected offset " + aw);
                out.append(q).append("->").append(got).append(" ");
            }
        }
        return out.toString().trim() + " (consumer and Admin)";
    }

    String crossConsume() {
        String cp = args.getOrDefault("cross-prefix", "");
        if (cp.isEmpty()) throw new NotApplicable("no cross-client producer assigned");
        String t = cp + "-produce-none";
        String headers = args.getOrDefault("cross-headers", "1");
        return t + ": " + check(fetchAll(t, n), expected(cp, n, tsBase), headers, args.getOrDefault("cross-ts", "exact"));
    }

    // ---- transactions (the same plan as clients/common.py txn_plan) ----

    static final String[] TXN_OUTCOMES = {"commit", "abort", "commit"};
    static final int TXN_RECORDS = 6;

    Producer txnProducer(String txnId) {
        Properties p = base();
        p.put("transactional.id", txnId);
        p.put("linger.ms", "5");
        p.put("max.block.ms", "20000");
        p.put("delivery.timeout.ms", "30000");
        Producer pr = new Producer(p);
        pr.initTransactions();
        return pr;
    }

    Consumer consumer(String isolation) {
        Properties p = base();
        p.put("enable.auto.commit", "false");
        p.put("auto.offset.reset", "earliest");
        p.put("isolation.level", isolation);
        return new Consumer(p);
    }

    void createTopic(String t, int partitions) throws Exception {
        try (BoundedAdmin b = admin()) {
            b.a.createTopics(List.of(new NewTopic(t, partitions, (short) 1))).all().get(20, TimeUnit.SECONDS);
        }
    }

    /** Keys per partition of t, from offset 0, until done(keys) or 20 s. */
    Map<Integer, List<String>> readKeys(String t, int partitions, String isolation,
                                        java.util.function.Predicate<Map<Integer, List<String>>> done) {
        Map<Integer, List<String>> got = new TreeMap<>();
        try (Consumer c = consumer(isolation)) {
            List<TopicPartition> tps = new ArrayList<>();
            for (int i = 0; i < partitions; i++) tps.add(new TopicPartition(t, i));
            c.assign(tps);
            c.seekToBeginning(tps);
            long deadline = System.currentTimeMillis() + 20000;
            while (!done.test(got) && System.currentTimeMillis() < deadline)
                for (ConsumerRecord<byte[], byte[]> m : c.poll(Duration.ofMillis(200)))
                    got.computeIfAbsent(m.partition(), k -> new ArrayList<>()).add(bs(m.key()));
        }
        return got;
    }

    Map<Integer, List<String>> txnExpected(boolean committedOnly) {
        Map<Integer, List<String>> out = new TreeMap<>(Map.of(0, new ArrayList<>(), 1, new ArrayList<>()));
        for (int t = 0; t < TXN_OUTCOMES.length; t++)
            if (!committedOnly || TXN_OUTCOMES[t].equals("commit"))
                for (int i = 0; i < TXN_RECORDS; i++) out.get(i % 2).add(prefix + "-t" + t + "-" + TXN_OUTCOMES[t] + "-" + i);
        return out;
    }

    String txnCommitAbort() throws Exception {
        String t = prefix + "-txn";
        createTopic(t, 2);
        try (Producer p = txnProducer(prefix + "-txn-commit-abort")) {
            for (int tx = 0; tx < TXN_OUTCOMES.length; tx++) {
                p.beginTransaction();
                for (int i = 0; i < TXN_RECORDS; i++) {
                    String k = prefix + "-t" + tx + "-" + TXN_OUTCOMES[tx] + "-" + i;
                    p.send(new ProducerRecord<>(t, i % 2, by(k), by(k)));
                }
                if (TXN_OUTCOMES[tx].equals("commit")) p.commitTransaction();
                else { p.flush(); p.abortTransaction(); }  // the aborted records reach the log before the marker
            }
        }
        StringBuilder out = new StringBuilder("commit, abort, commit over 2 partitions;");
        for (String iso : List.of("read_committed", "read_uncommitted")) {
            Map<Integer, List<String>> exp = txnExpected(iso.equals("read_committed"));
            Map<Integer, List<String>> got = readKeys(t, 2, iso, g -> exp.entrySet().stream().allMatch(
                    e -> g.getOrDefault(e.getKey(), List.of()).contains(e.getValue().get(e.getValue().size() - 1))));
            for (int part : exp.keySet())
                if (!exp.get(part).equals(got.getOrDefault(part, List.of())))
                    throw new Failed(iso + ": partition " + part + " has keys " + got.get(part) + ", expected " + exp.get(part));
            out.append(" ").append(iso).append(": ").append(exp.get(0).size() + exp.get(1).size()).append(" records");
        }
        return out.toString();
    }

    String txnOffsets() throws Exception {
        String tin = prefix + "-txn-in", tout = prefix + "-txn-out", group = prefix + "-txn-group";
        try (Producer p = producer("none")) {
            for (int i = 0; i < 6; i++) p.send(new ProducerRecord<>(tin, 0, by(prefix + "-in-" + i), by("in-" + i)));
            p.flush();
        }
        Properties cp = base();
        cp.put("group.id", group);
        cp.put("enable.auto.commit", "false");
        cp.put("auto.offset.reset", "earliest");
        cp.put("isolation.level", "read_committed");
        try (Consumer c = new Consumer(cp); Producer p = txnProducer(prefix + "-txn-offsets")) {
            c.subscribe(List.of(tin));
            List<ConsumerRecord<byte[], byte[]>> recs = new ArrayList<>();
            long deadline = System.currentTimeMillis() + 20000;
            while (recs.size() < 6 && System.currentTimeMillis() < deadline)
                for (ConsumerRecord<byte[], byte[]> m : c.poll(Duration.ofMillis(200))) recs.add(m);
            if (recs.size() != 6) throw new Failed("the group consumer got " + recs.size() + " of 6 input records");
            for (int half = 0; half < 2; half++) {
                List<ConsumerRecord<byte[], byte[]>> part = recs.subList(half * 3, half * 3 + 3);
                p.beginTransaction();
                for (ConsumerRecord<byte[], byte[]> m : part)
                    p.send(new ProducerRecord<>(tout, 0, by(bs(m.key()).replace("-in-", "-out-")), by(bs(m.value()).toUpperCase(Locale.ROOT))));
                p.sendOffsetsToTransaction(Map.of(new TopicPartition(tin, 0), new OffsetAndMetadata(part.get(2).offset() + 1)),
                        c.groupMetadata());
                if (half == 0) p.commitTransaction();
                else { p.flush(); p.abortTransaction(); }
            }
        }
        // A plain record after the aborted transaction: once a read_committed consumer sees it, the abort is final.
        String sentinel = prefix + "-sentinel";
        try (Producer p = producer("none")) {
            p.send(new ProducerRecord<>(tout, 0, by(sentinel), by(""))).get(20, TimeUnit.SECONDS);
        }
        List<String> keys = readKeys(tout, 1, "read_committed", g -> g.getOrDefault(0, List.of()).contains(sentinel))
                .getOrDefault(0, List.of());
        List<String> want = List.of(prefix + "-out-0", prefix + "-out-1", prefix + "-out-2", sentinel);
        if (!keys.equals(want)) throw new Failed("output keys " + keys + ", expected the first transaction's then the sentinel: " + want);
        try (BoundedAdmin b = admin()) {
            OffsetAndMetadata o = b.a.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata()
                    .get(20, TimeUnit.SECONDS).get(new TopicPartition(tin, 0));
            if (o == null || o.offset() != 3)
                throw new Failed("group " + group + " committed offset " + o + " for " + tin + "-0, expected 3 (the first transaction's)");
        }
        return "group " + group + " committed offset 3; output has the first transaction's 3 records only";
    }

    String txnFencing() throws Exception {
        String t = prefix + "-txn-fence", id = prefix + "-txn-fencing";
        String fenced;
        try (Producer first = txnProducer(id)) {
            first.beginTransaction();
            first.send(new ProducerRecord<>(t, 0, by("first"), by("first"))).get(20, TimeUnit.SECONDS);
            try (Producer second = txnProducer(id)) {  // bumps the epoch: the first is fenced, its transaction aborted
                try {
                    first.commitTransaction();
                    throw new Failed("the first producer committed after a second one with its transactional.id initialised");
                } catch (org.apache.kafka.common.errors.ProducerFencedException e) {
                    fenced = e.getClass().getSimpleName();
                }
                second.beginTransaction();
                second.send(new ProducerRecord<>(t, 0, by("second"), by("second")));
                second.commitTransaction();
            }
        }
        List<String> keys = readKeys(t, 1, "read_committed", g -> g.getOrDefault(0, List.of()).contains("second"))
                .getOrDefault(0, List.of());
        if (!keys.equals(List.of("second"))) throw new Failed("read_committed keys " + keys + ", expected only the second producer's [second]");
        return "first producer's commit: " + fenced + "; read_committed sees only the second producer's record";
    }

    // ---- security: sec-<mode>, settings from the --security properties file (compat/security.py) ----

    static final int SECURE_RECORDS = 5;

    String secure(String mode) throws Exception {
        Properties file = new Properties();
        try (var in = new java.io.FileInputStream(args.get("security"))) { file.load(in); }
        Function<String, String> get = k -> file.getProperty(mode + "." + k, "");
        Properties conn = base();
        conn.put("bootstrap.servers", get.apply("bootstrap"));
        conn.put("security.protocol", get.apply("protocol"));
        if (!get.apply("ca").isEmpty()) {
            conn.put("ssl.truststore.type", "PEM");
            conn.put("ssl.truststore.location", get.apply("ca"));
        }
        if (!get.apply("keystore").isEmpty()) {  // mutual TLS: the client's certificate
            conn.put("ssl.keystore.type", "PKCS12");
            conn.put("ssl.keystore.location", get.apply("keystore"));
            conn.put("ssl.keystore.password", get.apply("keystore.password"));
            conn.put("ssl.key.password", get.apply("keystore.password"));
        }
        String mechanism = get.apply("mechanism");
        if (!mechanism.isEmpty()) {
            conn.put("sasl.mechanism", mechanism);
            String module = mechanism.equals("PLAIN") ? "org.apache.kafka.common.security.plain.PlainLoginModule"
                    : "org.apache.kafka.common.security.scram.ScramLoginModule";
            conn.put("sasl.jaas.config", module + " required username=\"" + get.apply("user") + "\" password=\""
                    + get.apply("password") + "\";");
        }
        String t = get.apply("prefix") + prefix;
        TopicPartition tp = new TopicPartition(t, 0);
        List<String> want = new ArrayList<>();
        for (int i = 0; i < SECURE_RECORDS; i++) want.add(t + "-k" + i + "=v" + i);
        Properties pp = new Properties();
        pp.putAll(conn);
        pp.put("max.block.ms", "20000");
        pp.put("delivery.timeout.ms", "30000");
        List<Long> offsets = new ArrayList<>();
        try (Producer p = new Producer(pp)) {
            List<Future<RecordMetadata>> futs = new ArrayList<>();
            for (int i = 0; i < SECURE_RECORDS; i++) futs.add(p.send(new ProducerRecord<>(t, 0, by(t + "-k" + i), by("v" + i))));
            for (Future<RecordMetadata> f : futs) offsets.add(f.get(20, TimeUnit.SECONDS).offset());
        }
        for (int i = 0; i < SECURE_RECORDS; i++)
            if (offsets.get(i) != i) throw new Failed("acked offsets " + offsets + ", expected 0.." + (SECURE_RECORDS - 1));
        Properties cp = new Properties();
        cp.putAll(conn);
        cp.put("enable.auto.commit", "false");
        cp.put("auto.offset.reset", "earliest");
        try (Consumer c = new Consumer(cp)) {
            c.assign(List.of(tp));
            c.seek(tp, 0);
            secureCheck(want, readPairs(c), "assign + seek(0)");
        }
        Properties gp = new Properties();
        gp.putAll(cp);
        gp.put("group.id", t);
        try (Consumer g = new Consumer(gp)) {
            g.subscribe(List.of(t));
            secureCheck(want, readPairs(g), "group " + t);
            g.commitSync(Duration.ofSeconds(15));
        }
        long committed;
        try (Consumer check = new Consumer(gp)) {
            OffsetAndMetadata o = check.committed(Set.of(tp), Duration.ofSeconds(15)).get(tp);
            committed = o == null ? -1 : o.offset();
        }
        if (committed != SECURE_RECORDS)
            throw new Failed("group " + t + ": the committed offset read back is " + committed + ", expected " + SECURE_RECORDS);
        return get.apply("protocol") + (mechanism.isEmpty() ? "" : " " + mechanism)
                + (get.apply("keystore").isEmpty() ? "" : " with a client certificate") + ": produced " + SECURE_RECORDS
                + " records to " + t + ", read them back (assign), group " + t + " read them and committed offset " + committed;
    }

    static List<String> readPairs(Consumer c) {
        List<String> got = new ArrayList<>();
        long deadline = System.currentTimeMillis() + 20000;
        while (got.size() < SECURE_RECORDS && System.currentTimeMillis() < deadline)
            for (ConsumerRecord<byte[], byte[]> m : c.poll(Duration.ofMillis(200))) got.add(bs(m.key()) + "=" + bs(m.value()));
        return got;
    }

    static void secureCheck(List<String> want, List<String> got, String how) {
        if (!got.equals(want)) throw new Failed(how + ": read " + got + ", expected " + want);
    }

    /** A Kafka Streams scenario (StreamsWordCount.java, StreamsEos.java), compiled only where kafka-streams is on
     *  the classpath: its static run(Harness), or `method`. */
    String streams(String cls) throws Exception {
        return streams(cls, "run");
    }

    String streams(String cls, String method) throws Exception {
        Class<?> app;
        try { app = Class.forName(cls); }
        catch (ClassNotFoundException e) { throw new NotApplicable("kafka-streams is not on this column's classpath"); }
        try { return (String) app.getMethod(method, Harness.class).invoke(null, this); }
        catch (java.lang.reflect.InvocationTargetException e) {
            if (e.getCause() instanceof Exception x) throw x;
            throw e;
        }
    }

    /** kafka-clients' version, from the resource its AppInfoParser reads (that class moved in 4.0). */
    static String clientVersion() {
        Properties p = new Properties();
        try (var in = Harness.class.getClassLoader().getResourceAsStream("kafka/kafka-version.properties")) {
            if (in != null) p.load(in);
        } catch (IOException ignored) { }
        return p.getProperty("version", "unknown");
    }

    interface Scenario { String run() throws Exception; }

    /** sec-<mode> for any mode the settings file has; else the named scenario (null: not implemented). */
    Scenario scenario(Map<String, Scenario> all, String name) {
        return name.startsWith("sec-") ? () -> secure(name.substring(4)) : all.get(name);
    }

    Map<String, Scenario> scenarios() {
        Map<String, Scenario> m = new LinkedHashMap<>();
        m.put("admin-create", this::adminCreate);
        m.put("auto-create", this::autoCreate);
        for (String c : CODECS) m.put("produce-" + c, () -> produce(c));
        for (String c : CODECS) m.put("consume-" + c, () -> consume(c));
        m.put("offsets-earliest", () -> offsets("earliest"));
        m.put("offsets-latest", () -> offsets("latest"));
        m.put("offsets-by-time", this::offsetsByTime);
        m.put("cross-consume", this::crossConsume);
        m.put("admin-delete", this::adminDelete);
        m.put("txn-commit-abort", this::txnCommitAbort);
        m.put("txn-offsets", this::txnOffsets);
        m.put("txn-fencing", this::txnFencing);
        m.put("streams-wordcount", () -> streams("StreamsWordCount"));
        m.put("streams-eos", () -> streams("StreamsEos"));
        m.put("streams-protocol-wordcount", () -> streams("StreamsWordCount", "runStreamsProtocol"));
        return m;
    }

    static String json(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char ch : s.toCharArray()) {
            switch (ch) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> { if (ch < 0x20) b.append(String.format("\\u%04x", (int) ch)); else b.append(ch); }
            }
        }
        return b.append("\"").toString();
    }

    static String describe(Throwable e) {
        Throwable root = e;
        while ((root instanceof ExecutionException || root instanceof CompletionException) && root.getCause() != null) root = root.getCause();
        StringBuilder b = new StringBuilder(root.getClass().getName() + ": " + root.getMessage());
        StackTraceElement[] st = root.getStackTrace();
        for (int i = 0; i < Math.min(8, st.length); i++) b.append("\n  at ").append(st[i]);
        if (root.getCause() != null) b.append("\ncaused by ").append(root.getCause());
        return b.toString();
    }

    void emit(String scenario, String status, String detail, double secs) {
        System.out.println("{\"client\": " + json(args.get("client")) + ", \"scenario\": " + json(scenario)
                + ", \"status\": " + json(status) + ", \"detail\": " + json(detail)
                + ", \"seconds\": " + String.format(Locale.ROOT, "%.2f", secs) + "}");
        System.out.flush();
    }

    /** One scenario running in its daemon thread: res is {status, detail, seconds} once it is done. */
    record Running(Thread thread, String[] res, long t0) { }

    Running start(String name, Scenario s) {
        long t0 = System.nanoTime();
        String[] res = new String[3];
        if (s == null) { res[0] = "n/a"; res[1] = "not implemented by this harness"; return new Running(null, res, t0); }
        Thread th = new Thread(() -> {
            try { res[1] = s.run(); res[0] = "pass"; }
            catch (NotApplicable e) { res[0] = "n/a"; res[1] = e.getMessage(); }
            catch (Failed e) { res[0] = "fail"; res[1] = e.getMessage(); }
            catch (Throwable e) { res[0] = "fail"; res[1] = describe(e); }
            res[2] = Double.toString((System.nanoTime() - t0) / 1e9);
        }, name);
        th.setDaemon(true);
        th.start();
        return new Running(th, res, t0);
    }

    /** The scenarios in order; with --parallel 1 all at once (they must not depend on each other). */
    void runAll() {
        Map<String, Scenario> all = scenarios();
        double timeout = Double.parseDouble(args.getOrDefault("timeout", "30"));
        String[] wanted = args.getOrDefault("scenarios", String.join(",", all.keySet())).split(",");
        boolean parallel = "1".equals(args.get("parallel"));
        Map<String, Running> started = new HashMap<>();
        if (parallel) for (String name : wanted) started.put(name, start(name, scenario(all, name)));
        for (String name : wanted) {
            Running r = parallel ? started.get(name) : start(name, scenario(all, name));
            String[] res = r.res();
            Thread th = r.thread();
            long t0 = r.t0();
            long limitMs = (long) (timeout * 1000) * (name.startsWith("streams-") ? 2 : 1);  // a Streams app starts slowly
            if (th != null) {
                long left = limitMs - (System.nanoTime() - t0) / 1_000_000;
                try { th.join(Math.max(1, left)); } catch (InterruptedException e) { Thread.currentThread().interrupt(); }
            }
            String status, detail;
            status = res[0]; detail = res[1];
            if (th != null && th.isAlive() || status == null) {
                StringBuilder b = new StringBuilder("timeout: no result after " + limitMs / 1000 + "s (hang); stuck at:");
                for (StackTraceElement e : th.getStackTrace()) { b.append("\n  at ").append(e); if (b.length() > 1500) break; }
                status = "fail"; detail = b.toString();
            }
            results.put(name, status);
            emit(name, status, detail == null ? "" : detail, res[2] != null ? Double.parseDouble(res[2]) : (System.nanoTime() - t0) / 1e9);
        }
    }

    // ---- group member (driven by compat/groups.py; protocol in clients/common.py MemberIO) ----

    static void say(String jsonLine) {
        System.out.println(jsonLine);
        System.out.flush();
    }

    void member() {
        if ("share".equals(args.get("group-protocol"))) {  // KIP-932: ShareMember.java, java-4 only
            try { Class.forName("ShareMember").getMethod("run", Harness.class).invoke(null, this); }
            catch (ReflectiveOperationException e) { say("{\"error\": " + json(describe(e)) + "}"); }
            return;
        }
        Properties p = base();
        p.put("group.id", args.get("member"));
        p.put("enable.auto.commit", "false");
        p.put("auto.offset.reset", "earliest");
        if ("consumer".equals(args.get("group-protocol"))) {
            p.put("group.protocol", "consumer");  // KIP-848: the coordinator owns session, heartbeat and assignor
        } else {
            p.put("session.timeout.ms", args.getOrDefault("session-ms", "6000"));
            p.put("heartbeat.interval.ms", "500");
            if ("range".equals(args.get("assignor"))) p.put("partition.assignment.strategy", RangeAssignor.class.getName());
        }
        String t = args.get("topic");
        BlockingQueue<String> cmds = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
                for (String l; (l = r.readLine()) != null; ) cmds.add(l);
            } catch (IOException ignored) { }
            cmds.add("{\"close\": true}");
        });
        reader.setDaemon(true);
        reader.start();
        try {
            Consumer c = new Consumer(p);
            c.subscribe(List.of(t));
            String last = null;
            Pattern offset = Pattern.compile("\"(\\d+)\":\\s*(\\d+)");
            while (true) {
                for (ConsumerRecord<byte[], byte[]> m : c.poll(Duration.ofMillis(100)))
                    say("{\"rec\": [" + m.partition() + ", " + m.offset() + ", " + json(bs(m.key())) + "]}");
                List<Integer> owned = new ArrayList<>();
                for (TopicPartition tp : c.assignment()) owned.add(tp.partition());
                Collections.sort(owned);
                if (!owned.toString().equals(last)) { last = owned.toString(); say("{\"assigned\": " + last + "}"); }
                for (String cmd; (cmd = cmds.poll()) != null; ) {
                    if (cmd.contains("\"commit\"")) {
                        Map<TopicPartition, OffsetAndMetadata> offs = new HashMap<>();
                        Matcher mt = offset.matcher(cmd.substring(cmd.indexOf("{", 1)));
                        while (mt.find()) offs.put(new TopicPartition(t, Integer.parseInt(mt.group(1))), new OffsetAndMetadata(Long.parseLong(mt.group(2))));
                        c.commitSync(offs, Duration.ofSeconds(15));
                        say("{\"committed\": " + json(offs.toString()) + "}");
                    }
                    if (cmd.contains("\"close\"")) {
                        c.close(Duration.ofSeconds(10));
                        say("{\"closed\": true}");
                        return;
                    }
                }
            }
        } catch (Throwable e) {
            say("{\"error\": " + json(describe(e)) + "}");
        }
    }

    public static void main(String[] argv) {
        Harness h = new Harness();
        for (int i = 0; i + 1 < argv.length; i += 2) h.args.put(argv[i].replaceFirst("^--", ""), argv[i + 1]);
        h.bootstrap = h.args.get("bootstrap");
        h.prefix = h.args.get("prefix");
        h.n = Integer.parseInt(h.args.getOrDefault("n", "10"));
        h.tsBase = Long.parseLong(h.args.get("ts-base"));
        if (h.args.containsKey("member")) {
            h.member();
            Runtime.getRuntime().halt(0);
        }
        System.out.println("{\"version\": " + json("kafka-clients " + clientVersion()
                + " (Java " + System.getProperty("java.version") + ")") + "}");
        h.runAll();
        System.out.flush();
        Runtime.getRuntime().halt(0);
    }
}
