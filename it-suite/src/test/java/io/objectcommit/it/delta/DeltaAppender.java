package io.objectcommit.it.delta;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;

import io.objectcommit.it.SparkSessions;
import java.util.Map;
import org.apache.spark.sql.SparkSession;

/**
 * One writer of {@link DeltaConcurrentWritersIT}: a Spark application in its own JVM that appends to Delta tables,
 * one transaction at a time, each a blind append of {@code rows} rows tagged with the writer and its sequence number
 * (also the commit's {@code userMetadata}, {@code w<writer>-s<seq>}). With several tables it appends each sequence
 * number to every table in turn, so that the tables see the same concurrency. It reports each transaction on its
 * table's report file ({@link DeltaWriterJvm}).
 *
 * <p>Arguments: tables, report files ({@link DeltaWriterJvm}), then writer, transactions, rows, then {@code key=value}
 * Spark settings.
 */
public final class DeltaAppender {

  private DeltaAppender() {
  }

  static String txn(int writer, int seq) {
    return "w" + writer + "-s" + seq;
  }

  public static void main(String[] args) throws Exception {
    int code = 0;
    try (DeltaWriterJvm jvm = DeltaWriterJvm.open(args, 3);
        SparkSession spark = SparkSessions.local("delta-writer-" + jvm.arg(0), "local[1]", Map.of(),
            jvm.sparkConf())) {
      int writer = Integer.parseInt(jvm.arg(0));
      int transactions = Integer.parseInt(jvm.arg(1));
      long rows = Long.parseLong(jvm.arg(2));
      for (int seq = 0; seq < transactions; seq++) {
        String txn = txn(writer, seq);
        for (int t = 0; t < jvm.tables().size(); t++) {
          try {
            spark.range(0, rows, 1, 1)
                .select(lit(writer).as("writer"), lit(seq).as("seq"), col("id"))
                .write().format("delta").mode("append").option("userMetadata", txn).save(jvm.tables().get(t));
            jvm.committed(t, txn);
          } catch (Exception e) {
            jvm.failed(t, txn, String.valueOf(e));
            e.printStackTrace();
          }
        }
      }
    } catch (Throwable t) {
      t.printStackTrace();
      code = 1;
    }
    System.exit(code);
  }
}
