package io.objectcommit.it.delta;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;

import io.objectcommit.it.SparkSessions;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.spark.sql.SparkSession;

/**
 * One writer of {@link DeltaConcurrentWritersIT}: a Spark application in its own JVM that appends to one Delta
 * table, one transaction at a time, each a blind append of {@code rows} rows tagged with the writer and its sequence
 * number (also the commit's {@code userMetadata}, {@code w<writer>-s<seq>}). It reports each transaction on a line of
 * its report file as Delta reported it to the application: {@code w1-s3 ok}, or {@code w1-s3 failed <message>}.
 *
 * <p>Arguments: table, writer, transactions, rows, report file, then {@code key=value} Spark settings.
 */
public final class DeltaAppender {

  private DeltaAppender() {
  }

  static String txn(int writer, int seq) {
    return "w" + writer + "-s" + seq;
  }

  public static void main(String[] args) throws Exception {
    String table = args[0];
    int writer = Integer.parseInt(args[1]);
    int transactions = Integer.parseInt(args[2]);
    long rows = Long.parseLong(args[3]);
    Path report = Path.of(args[4]);
    Map<String, String> conf = new LinkedHashMap<>();
    for (int i = 5; i < args.length; i++) {
      int eq = args[i].indexOf('=');
      conf.put(args[i].substring(0, eq), args[i].substring(eq + 1));
    }
    int code = 0;
    try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(report, StandardCharsets.UTF_8), true);
        SparkSession spark = SparkSessions.local("delta-writer-" + writer, "local[1]", Map.of(), conf)) {
      for (int seq = 0; seq < transactions; seq++) {
        String txn = txn(writer, seq);
        try {
          spark.range(0, rows, 1, 1)
              .select(lit(writer).as("writer"), lit(seq).as("seq"), col("id"))
              .write().format("delta").mode("append").option("userMetadata", txn).save(table);
          out.println(txn + " ok");
        } catch (Exception e) {
          out.println(txn + " failed " + String.valueOf(e).replace('\n', ' '));
          e.printStackTrace();
        }
      }
    } catch (Throwable t) {
      t.printStackTrace();
      code = 1;
    }
    System.exit(code);
  }
}
