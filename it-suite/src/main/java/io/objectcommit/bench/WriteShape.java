package io.objectcommit.bench;

/**
 * The shape of one benchmark write: {@code tasks} Spark tasks, each writing {@code files / tasks} Parquet files of
 * {@code rowsPerFile} rows (rows of a {@code long} and two random {@code double}s, about 24 bytes each in
 * Parquet, so 44,000 rows make a file of about 1 MB).
 *
 * @param label how reports name it, for example {@code 200 x 1 MB}
 * @param files Parquet files written
 * @param tasks Spark tasks (a divisor of {@code files})
 * @param rowsPerFile rows per file ({@code maxRecordsPerFile} when a task writes several)
 */
public record WriteShape(String label, int files, int tasks, long rowsPerFile) {

  public WriteShape {
    if (files <= 0 || tasks <= 0 || files % tasks != 0 || rowsPerFile <= 0) {
      throw new IllegalArgumentException("bad write shape " + label + ": files " + files + ", tasks " + tasks
          + ", rows per file " + rowsPerFile + " (files must be a positive multiple of tasks)");
    }
  }

  /** Rows in all. */
  public long rows() {
    return files * rowsPerFile;
  }

  /** Files each task writes. */
  public int filesPerTask() {
    return files / tasks;
  }
}
