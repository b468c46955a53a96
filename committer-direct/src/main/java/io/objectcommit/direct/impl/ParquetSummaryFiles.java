package io.objectcommit.direct.impl;

import io.objectcommit.direct.DirectCommitterOptions;
import io.objectcommit.direct.files.CommittedFile;
import io.objectcommit.store.ObjectStore;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.HadoopReadOptions;
import org.apache.parquet.format.converter.ParquetMetadataConverter;
import org.apache.parquet.hadoop.Footer;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetOutputFormat;
import org.apache.parquet.hadoop.ParquetOutputFormat.JobSummaryLevel;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Parquet summary files ({@code _metadata}, {@code _common_metadata}) per {@code parquet.summary.metadata.level},
 * written at job commit from the footers of the committed files. The files are known from the task records, so
 * nothing is listed: one ranged GET per file (two if its footer exceeds 64 KiB), and one PUT per summary file.
 * A footer that cannot be merged (incompatible schemas) skips the summary with a WARN, as Parquet does.
 */
public final class ParquetSummaryFiles {

  private static final Logger LOG = LoggerFactory.getLogger(ParquetSummaryFiles.class);
  private static final int TAIL = 64 * 1024;
  private static final byte[] MAGIC = "PAR1".getBytes(StandardCharsets.US_ASCII);

  private ParquetSummaryFiles() {
  }

  public static void writeIfRequested(Configuration conf, OutputLocation location,
      DirectCommitEngine.CommittedJob job) throws IOException {
    JobSummaryLevel level = level(conf);
    if (level == JobSummaryLevel.NONE) {
      return;
    }
    AttemptWriter writer = AttemptWriter.forJobCommit(job.jobId, location, job.store,
        DirectCommitterOptions.from(conf, location.bucket()));
    AttemptRegistry.register(writer);
    try {
      Path root = location.workPath(writer.attemptId());
      List<Footer> footers = new ArrayList<>();
      for (CommittedFile f : job.files) {
        if (f.key.endsWith(".parquet")) {
          String rel = f.key.substring(location.prefix().length());
          footers.add(new Footer(new Path(root, rel), readFooter(job.store, f, conf)));
        }
      }
      if (footers.isEmpty()) {
        return;
      }
      Configuration c = new Configuration(conf);
      c.set("fs." + root.toUri().getScheme() + ".impl", DirectWorkFileSystem.class.getName());
      ParquetFileWriter.writeMetadataFile(c, root, footers, level);
      LOG.info("Job {}: Parquet summary files ({}) written from {} footer(s)", job.jobId, level, footers.size());
    } catch (IOException | RuntimeException e) {
      // as Parquet's own committer: a summary that cannot be made is not worth failing the job
      LOG.warn("Job {}: Parquet summary files not written: {}", job.jobId, e.toString());
    } finally {
      writer.close();
    }
  }

  /**
   * The summary level: Parquet's, except that with neither {@code parquet.summary.metadata.level} nor
   * {@code parquet.enable.summary-metadata} set it is NONE (Spark's default; Parquet's own default is ALL).
   */
  static JobSummaryLevel level(Configuration conf) {
    if (conf.get(ParquetOutputFormat.JOB_SUMMARY_LEVEL) == null
        && conf.get(ParquetOutputFormat.ENABLE_JOB_SUMMARY) == null) {
      return JobSummaryLevel.NONE;
    }
    return ParquetOutputFormat.getJobSummaryLevel(conf);
  }

  static ParquetMetadata readFooter(ObjectStore store, CommittedFile f, Configuration conf) throws IOException {
    long size = f.size;
    if (size < 12) {
      throw new IOException(store.pathOf(f.key) + ": not a Parquet file (" + size + " bytes)");
    }
    long tailStart = Math.max(0, size - TAIL);
    byte[] tail = read(store, f.key, tailStart, size);
    int n = tail.length;
    if (!Arrays.equals(Arrays.copyOfRange(tail, n - 4, n), MAGIC)) {
      throw new IOException(store.pathOf(f.key) + ": not a Parquet file (no magic at the end)");
    }
    int len = (tail[n - 8] & 0xff) | (tail[n - 7] & 0xff) << 8 | (tail[n - 6] & 0xff) << 16 | (tail[n - 5] & 0xff) << 24;
    long footerStart = size - 8 - len;
    byte[] footer = footerStart >= tailStart
        ? Arrays.copyOfRange(tail, (int) (footerStart - tailStart), n - 8)
        : read(store, f.key, footerStart, size - 8);
    // The converter from the job's read options, as Parquet's own reader builds it: Parquet 1.17 (Spark 4.2) takes
    // the footer's maximum Thrift message size from them, and without them refuses every footer ("Max message size
    // must be positive: -1").
    return new ParquetMetadataConverter(HadoopReadOptions.builder(conf).build()).readParquetMetadata(
        new ByteArrayInputStream(footer),
        ParquetMetadataConverter.NO_FILTER);
  }

  private static byte[] read(ObjectStore store, String key, long start, long end) throws IOException {
    try (InputStream in = store.open(key, start, end)) {
      return in.readAllBytes();
    }
  }
}
