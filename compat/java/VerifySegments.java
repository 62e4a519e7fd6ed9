import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.apache.kafka.common.record.FileLogInputStream.FileChannelRecordBatch;
import org.apache.kafka.common.record.FileRecords;
import org.apache.kafka.common.record.Record;

/**
 * Opens every josefk segment ({@code *.log}) under the given directories with Kafka's own
 * reader, {@code org.apache.kafka.common.record.FileRecords}, validates every batch
 * ({@code ensureValid}: size and CRC-32C), decodes every record (decompressing), and checks
 * that offsets increase. Prints one line per file and a TOTAL line; exits 1 on any failure.
 *
 * <pre>java -cp compat/java/build:&lt;kafka jars&gt; VerifySegments LOG_DIR...</pre>
 */
public class VerifySegments {
    public static void main(String[] args) throws IOException {
        if (args.length == 0) {
            System.err.println("usage: VerifySegments LOG_DIR...");
            System.exit(2);
        }
        long files = 0, batches = 0, records = 0, bytes = 0;
        int failures = 0;
        for (String arg : args) {
            List<Path> logs;
            try (Stream<Path> walk = Files.walk(Paths.get(arg))) {
                logs = walk.filter(p -> p.getFileName().toString().matches("\\d{20}\\.log"))
                        .sorted().collect(Collectors.toList());
            }
            for (Path path : logs) {
                File file = path.toFile();
                long fileBatches = 0, fileRecords = 0, lastOffset = -1;
                try (FileRecords segment = FileRecords.open(file, false)) {
                    for (FileChannelRecordBatch batch : segment.batches()) {
                        batch.ensureValid();
                        if (batch.baseOffset() <= lastOffset) {
                            throw new IllegalStateException("offset " + batch.baseOffset() + " after " + lastOffset);
                        }
                        long previous = batch.baseOffset() - 1;
                        for (Record record : batch) {
                            record.ensureValid();
                            if (record.offset() <= previous || record.offset() > batch.lastOffset()) {
                                throw new IllegalStateException("record offset " + record.offset()
                                        + " outside batch " + batch.baseOffset() + ".." + batch.lastOffset());
                            }
                            previous = record.offset();
                            fileRecords++;
                        }
                        lastOffset = batch.lastOffset();
                        fileBatches++;
                    }
                    bytes += segment.sizeInBytes();
                    System.out.printf("OK %s batches=%d records=%d%n", path, fileBatches, fileRecords);
                } catch (RuntimeException e) {
                    failures++;
                    System.out.printf("FAIL %s after %d batches: %s%n", path, fileBatches, e);
                }
                files++;
                batches += fileBatches;
                records += fileRecords;
            }
        }
        System.out.printf("TOTAL files=%d batches=%d records=%d bytes=%d failures=%d%n",
                files, batches, records, bytes, failures);
        System.exit(failures == 0 && files > 0 ? 0 : 1);
    }
}
