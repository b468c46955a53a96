package io.objectcommit.it.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.s3.model.ListMultipartUploadsRequest;
import com.amazonaws.services.s3.model.MultipartUpload;
import com.amazonaws.services.s3.model.S3Object;
import io.objectcommit.testsupport.S3TestBucket;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.example.GroupReadSupport;

/**
 * Checks a job's output with readers independent of Spark and of objectcommit: the objects as a plain S3 client
 * (AWS SDK v1) lists them, each Parquet file downloaded and read with parquet-hadoop's example reader, pending
 * multipart uploads as the store lists them. Expected: ids {@code 0..rows-1} each exactly once, {@code k = id % 10}
 * (and in {@code k=<v>/} when partitioned), a {@code _SUCCESS}, nothing else, no pending upload.
 */
final class PlainOutputCheck {

  static final Pattern DATA_FILE = Pattern.compile("(?:k=(\\d+)/)?part-(\\d{5})-[^/]*\\.parquet");

  private PlainOutputCheck() {
  }

  /** The data objects of task {@code partition} under {@code relative} right now (for kill triggers). */
  static long dataObjectsOf(S3TestBucket bucket, String relative, int partition) {
    String base = bucket.key(relative) + "/";
    return bucket.listKeys(relative + "/").stream().map(k -> k.substring(base.length()))
        .map(DATA_FILE::matcher).filter(Matcher::matches)
        .filter(m -> Integer.parseInt(m.group(2)) == partition).count();
  }

  /** Verifies the output at {@code relative}; returns the number of data files. */
  static int verify(S3TestBucket bucket, String relative, long rows, boolean partitioned, Path scratch)
      throws IOException {
    return verify(bucket, relative, rows, partitioned, scratch, rel -> false, new ArrayList<>());
  }

  /**
   * As {@link #verify(S3TestBucket, String, long, boolean, Path)}, but objects whose relative key matches
   * {@code tolerated} are not stray: they are added to {@code toleratedFound} for the caller to report.
   */
  static int verify(S3TestBucket bucket, String relative, long rows, boolean partitioned, Path scratch,
      Predicate<String> tolerated, List<String> toleratedFound) throws IOException {
    String base = bucket.key(relative) + "/";
    List<String> keys = bucket.listKeys(relative + "/");
    List<String> stray = new ArrayList<>();
    List<String> data = new ArrayList<>();
    boolean success = false;
    for (String key : keys) {
      String rel = key.substring(base.length());
      Matcher m = DATA_FILE.matcher(rel);
      if (rel.equals("_SUCCESS")) {
        success = true;
      } else if (tolerated.test(rel)) {
        toleratedFound.add(rel);
      } else if (m.matches() && (m.group(1) != null) == partitioned) {
        data.add(key);
      } else {
        stray.add(rel);
      }
    }
    assertTrue(stray.isEmpty(), "stray objects under " + base + ": " + stray);
    assertTrue(success, "no _SUCCESS under " + base + " (objects: " + keys + ")");
    assertNoPendingUploads(bucket, relative);

    long[] seen = new long[Math.toIntExact(rows)];
    List<String> problems = new ArrayList<>();
    Files.createDirectories(scratch);
    Configuration conf = new Configuration(); // one for all files: building it reads Hadoop's default resources
    for (String key : data) {
      Path local = download(bucket, key, scratch);
      Matcher m = DATA_FILE.matcher(key.substring(base.length()));
      m.matches();
      Integer k = m.group(1) == null ? null : Integer.valueOf(m.group(1));
      try (ParquetReader<Group> reader = ParquetReader.builder(new GroupReadSupport(),
          new org.apache.hadoop.fs.Path(local.toUri())).withConf(conf).build()) {
        for (Group g = reader.read(); g != null; g = reader.read()) {
          long id = g.getLong("id", 0);
          long rowK = k != null ? k : g.getLong("k", 0);
          if (id < 0 || id >= rows || rowK != id % 10) {
            problems.add(key + ": row id=" + id + " k=" + rowK);
          } else {
            seen[(int) id]++;
          }
        }
      }
      Files.delete(local);
    }
    for (int i = 0; i < seen.length; i++) {
      if (seen[i] != 1) {
        problems.add("id " + i + " read " + seen[i] + " times");
      }
    }
    assertTrue(problems.isEmpty(), problems.size() + " problems reading " + data.size() + " files under " + base
        + ": " + problems.stream().limit(20).collect(Collectors.toList()));
    return data.size();
  }

  /** No object at all under {@code relative} (a refused job) and no pending upload. */
  static void verifyEmpty(S3TestBucket bucket, String relative) {
    assertEquals(List.of(), bucket.listKeys(relative + "/"), "objects under " + relative);
    assertNoPendingUploads(bucket, relative);
  }

  static void assertNoPendingUploads(S3TestBucket bucket, String relative) {
    List<String> pending = bucket.client().listMultipartUploads(
            new ListMultipartUploadsRequest(bucket.name()).withPrefix(bucket.key(relative)))
        .getMultipartUploads().stream().map(MultipartUpload::getKey).collect(Collectors.toList());
    assertEquals(List.of(), pending, "pending multipart uploads under " + relative);
  }

  private static Path download(S3TestBucket bucket, String key, Path scratch) throws IOException {
    Path local = scratch.resolve(key.replace('/', '_'));
    try (S3Object o = bucket.client().getObject(bucket.name(), key); InputStream in = o.getObjectContent()) {
      Files.copy(in, local, StandardCopyOption.REPLACE_EXISTING);
    }
    return local;
  }
}
