package josefk.spark;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Properties;

import org.apache.spark.api.python.SimplePythonFunction;
import org.apache.spark.sql.classic.SparkSession;
import org.apache.spark.sql.execution.datasources.DataSourceManager;
import org.apache.spark.sql.execution.datasources.v2.python.PythonDataSourceV2;
import org.apache.spark.sql.execution.datasources.v2.python.UserDefinedPythonDataSource;
import org.apache.spark.sql.sources.DataSourceRegister;

/**
 * format("kafka") for Spark without the official connector: a DataSourceRegister with
 * shortName "kafka" that is the Python data source "josefk" (josefk.spark.KafkaDataSource).
 * Spark refuses to register a Python data source named "kafka", so this class forwards the
 * name, and registers the Python source in the session if the job has not done so.
 */
public class KafkaFormat extends PythonDataSourceV2 implements DataSourceRegister {
    public static final String PYTHON_NAME = "josefk";
    /** pickle (protocol 0) of the class josefk.spark.KafkaDataSource, by reference. */
    private static final byte[] PICKLED_SOURCE =
        "cjosefk.spark\nKafkaDataSource\n.".getBytes(StandardCharsets.US_ASCII);

    private boolean named;

    public KafkaFormat() {
        super();
        setShortName(PYTHON_NAME);
    }

    /** The Python source, registered on first use (ServiceLoader builds every provider to read its name). */
    @Override
    public UserDefinedPythonDataSource source() {
        ensureRegistered();
        return super.source();
    }

    /** Spark names a Python source once, after construction; the name is always "josefk". */
    @Override
    public void setShortName(String name) {
        if (!named) {
            named = true;
            super.setShortName(PYTHON_NAME);
        }
    }

    @Override
    public String shortName() {
        return "kafka";
    }

    /** Register josefk.spark.KafkaDataSource as "josefk" in the active session, once. */
    static synchronized void ensureRegistered() {
        SparkSession session = SparkSession.active();
        DataSourceManager manager = session.sessionState().dataSourceManager();
        if (manager.dataSourceExists(PYTHON_NAME)) {
            return;
        }
        Properties built = new Properties();
        try (InputStream in = KafkaFormat.class.getResourceAsStream("/josefk-spark-shim.properties")) {
            if (in != null) {
                built.load(in);
            }
        } catch (java.io.IOException e) {
            throw new IllegalStateException("cannot read josefk-spark-shim.properties", e);
        }
        String exec = session.sparkContext().getConf().get("spark.pyspark.python",
            System.getenv().getOrDefault("PYSPARK_PYTHON", built.getProperty("python.exec", "python3")));
        String version = built.getProperty("python.version", "3");
        SimplePythonFunction fn = new SimplePythonFunction(PICKLED_SOURCE, new HashMap<>(), new ArrayList<>(),
            exec, version, new ArrayList<>(), session.sparkContext().collectionAccumulator());
        manager.registerDataSource(PYTHON_NAME, new UserDefinedPythonDataSource(fn));
    }
}
