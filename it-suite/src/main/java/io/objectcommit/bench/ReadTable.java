package io.objectcommit.bench;

import static org.apache.spark.sql.functions.floor;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.rand;
import static org.apache.spark.sql.functions.sum;

import io.objectcommit.it.SparkSessions;
import io.objectcommit.testsupport.PlainS3;
import io.objectcommit.testsupport.S3TestBucket;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The read-cache benchmark's Parquet table (seed 003's DataFrame of two float columns), written by Spark through
 * the proxy. Its values are whole multiples of 1/4 below 2^18, drawn by Spark's {@code rand(seed)}: exact in a
 * float, and their sums exact in a double up to far more rows than any size here, so the sums do not depend on
 * the order Spark adds them in and every contender must find exactly {@link #sums()}. Dictionary encoding is off
 * (about 2^20 distinct values per column would make Parquet fall back to plain pages anyway), so a size in bytes
 * is about 8 bytes a row.
 *
 * @param uri the table's {@code s3a://} location
 * @param keys the data files' keys, sorted
 * @param bytes the data files' total size
 * @param rows rows in the table
 * @param sums the sums of columns {@code a} and {@code b}
 */
public record ReadTable(String uri, List<String> keys, long bytes, long rows, Sums sums) {

  /** The sums of the two columns. */
  public record Sums(double a, double b) {
  }

  /** Seed of the warm-up table's values. */
  private static final long SEED_LOCAL = 1_000;

  /** Bytes a row takes in the table's Parquet files, about: two plain 4-byte floats. */
  static final int BYTES_PER_ROW = 8;

  /** Bytes per data file, about: Spark's default split size ({@code spark.sql.files.maxPartitionBytes}). */
  static final long BYTES_PER_FILE = 128L * 1024 * 1024;

  /**
   * Writes a table of about {@code sizeBytes} at {@code relative} in {@code bucket}, at least two files (so that
   * both task slots of {@code local[2]} read), values drawn with {@code seed}.
   *
   * @param s3aOptions the settings of the S3 endpoint to write through (the proxy's)
   */
  static ReadTable write(S3TestBucket bucket, Map<String, String> s3aOptions, String relative, long sizeBytes,
      long seed) {
    long rows = Math.max(1000, sizeBytes / BYTES_PER_ROW);
    int files = (int) Math.max(2, (sizeBytes + BYTES_PER_FILE - 1) / BYTES_PER_FILE);
    String uri = bucket.s3a(relative);
    Sums sums;
    try (SparkSession spark = SparkSessions.local("objectcommit-read-table", s3aOptions)) {
      Dataset<Row> df = spark.range(0, rows, 1, files).select(
          value(seed).as("a"), value(seed + 1).as("b"));
      Row r = df.agg(sum("a"), sum("b")).first();
      sums = new Sums(r.getDouble(0), r.getDouble(1));
      df.write().mode("overwrite").option("parquet.enable.dictionary", "false").parquet(uri);
    }
    List<String> keys = dataFiles(bucket, relative);
    long bytes = bucket.plain().listVersions(bucket.name(), bucket.key(relative + "/")).stream()
        .filter(v -> keys.contains(v.key())).mapToLong(PlainS3.Version::size).sum();
    return new ReadTable(uri, keys, bytes, rows, sums);
  }

  /** Writes a table of {@code rows} rows of the same schema to a local directory (the applications' warm-up). */
  static void writeLocal(Path dir, long rows) {
    try (SparkSession spark = SparkSessions.local("objectcommit-read-warm-up-table", Map.of())) {
      spark.range(0, rows, 1, 2).select(value(SEED_LOCAL).as("a"), value(SEED_LOCAL + 1).as("b")).write()
          .mode("overwrite").option("parquet.enable.dictionary", "false").parquet(dir.toUri().toString());
    }
  }

  /**
   * Replaces every data file of this table in place (same keys, new bytes and ETags) with those of a table of the
   * same shape drawn with {@code seed}, written beside it and then removed: what a job overwriting its output
   * under the same names leaves. Returns the table as it now is.
   */
  ReadTable overwriteInPlace(S3TestBucket bucket, Map<String, String> s3aOptions, String relative, long seed) {
    String sideRelative = relative + "-next";
    int files = keys.size();
    long sizeBytes = rows * BYTES_PER_ROW;
    ReadTable next = write(bucket, s3aOptions, sideRelative, sizeBytes, seed);
    if (next.keys().size() != files) {
      throw new IllegalStateException("the replacement table has " + next.keys().size() + " files, not " + files);
    }
    PlainS3 plain = bucket.plain();
    for (int i = 0; i < files; i++) {
      plain.putObject(bucket.name(), keys.get(i), plain.getObject(bucket.name(), next.keys().get(i)));
    }
    plain.deleteObjects(bucket.name(), bucket.listKeys(sideRelative + "/"));
    return new ReadTable(uri, keys, next.bytes(), rows, next.sums());
  }

  /** Copies the table's data files from {@code bucket} to the local directory {@code dir}, which it creates. */
  void copyToLocal(S3TestBucket bucket, Path dir) throws IOException {
    Files.createDirectories(dir);
    PlainS3 plain = bucket.plain();
    for (String key : keys) {
      Files.write(dir.resolve(key.substring(key.lastIndexOf('/') + 1)), plain.getObject(bucket.name(),
          key));
    }
  }

  /** Deletes the table's objects (LocalStack keeps them in memory and temporary files). */
  void delete(S3TestBucket bucket, String relative) {
    bucket.plain().deleteObjects(bucket.name(), bucket.listKeys(relative + "/"));
  }

  private static org.apache.spark.sql.Column value(long seed) {
    return floor(rand(seed).multiply(lit(1 << 20))).divide(lit(4)).cast("float");
  }

  private static List<String> dataFiles(S3TestBucket bucket, String relative) {
    return bucket.listKeys(relative + "/").stream().filter(k -> k.endsWith(".parquet")).sorted().toList();
  }
}
