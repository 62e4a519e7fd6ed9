import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.MessageSizeAccumulator;
import org.apache.kafka.common.protocol.ObjectSerializationCache;
import org.apache.kafka.common.protocol.Readable;

/**
 * Kafka's own message classes as the judge of josefk's encodings (tests/test_messages.py): reads
 * lines "MessageName version hex" from stdin, decodes each body with
 * org.apache.kafka.common.message.MessageNameData at that version, re-encodes it the way Kafka's
 * request and response serialisation does (ObjectSerializationCache, MessageSizeAccumulator), and
 * prints "OK hex" - or "ERR reason" when Kafka cannot read it or leaves bytes unread. One JVM for
 * every case of a kafka-clients jar.
 */
public final class MessageRoundTrip {
    public static void main(String[] args) throws Exception {
        HexFormat hex = HexFormat.of();
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line; (line = in.readLine()) != null; ) {
            String[] parts = line.split(" ", -1);
            if (parts.length != 3) {
                out.println("ERR malformed line");
                continue;
            }
            try {
                out.println("OK " + hex.formatHex(roundTrip(parts[0], Short.parseShort(parts[1]), hex.parseHex(parts[2]))));
            } catch (InvocationTargetException e) {
                out.println("ERR " + oneLine(e.getCause()));
            } catch (Exception e) {
                out.println("ERR " + oneLine(e));
            }
        }
        out.flush();
    }

    static byte[] roundTrip(String name, short version, byte[] body) throws Exception {
        Class<?> cls = Class.forName("org.apache.kafka.common.message." + name + "Data");
        Constructor<?> constructor = cls.getConstructor(Readable.class, short.class);
        ByteBuffer input = ByteBuffer.wrap(body);
        ApiMessage message = (ApiMessage) constructor.newInstance(new ByteBufferAccessor(input), version);
        if (input.hasRemaining()) {
            throw new IllegalStateException(input.remaining() + " bytes left unread");
        }
        ObjectSerializationCache cache = new ObjectSerializationCache();
        MessageSizeAccumulator size = new MessageSizeAccumulator();
        message.addSize(size, cache, version);
        ByteBuffer output = ByteBuffer.allocate(size.totalSize());
        message.write(new ByteBufferAccessor(output), cache, version);
        if (output.hasRemaining()) {
            throw new IllegalStateException("wrote " + output.position() + " of " + size.totalSize() + " bytes");
        }
        return output.array();
    }

    static String oneLine(Throwable e) {
        return (e.getClass().getSimpleName() + ": " + e.getMessage()).replace('\n', ' ');
    }
}
