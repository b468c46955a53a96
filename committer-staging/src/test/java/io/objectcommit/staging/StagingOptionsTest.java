package io.objectcommit.staging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

class StagingOptionsTest {

  private static StagingOptions read(String... kv) {
    Configuration conf = new Configuration(false);
    for (int i = 0; i < kv.length; i += 2) {
      conf.set(kv[i], kv[i + 1]);
    }
    return StagingOptions.from(conf, "bucket", null);
  }

  @Test
  void defaults() {
    StagingOptions o = read("hadoop.tmp.dir", "/tmp/h");
    assertEquals(StagingOptions.Variant.DIRECTORY, o.variant());
    assertEquals(ConflictMode.APPEND, o.conflictMode());
    assertEquals(List.of(new File("/tmp/h/objectcommit-staging")), o.bufferDirs());
    assertEquals(64L * 1024 * 1024, o.partSize());
    assertEquals(StagingConstants.UPLOAD_THREADS_DEFAULT, o.uploadThreads());
    assertEquals(StagingConstants.COMMIT_THREADS_DEFAULT, o.commitThreads());
    assertTrue(o.sweepUploads());
    assertEquals(List.of(), o.replacePaths());
    assertEquals(StagingConstants.BUFFER_MAX_AGE_DEFAULT_MS, o.bufferMaxAgeMs());
    assertEquals(1024 * 1024, o.inlineTaskBytes());
    assertEquals(128 * 1024, o.inlineFileBytes());
  }

  @Test
  void bufferMaxAgeIsADurationPerBucket() {
    assertEquals(12 * 3_600_000L, read("fs.objectcommit.bucket.bucket.staging.buffer.max-age", "12h").bufferMaxAgeMs());
    assertEquals(3_600_000L, read(StagingConstants.BUFFER_MAX_AGE, "1h").bufferMaxAgeMs());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> read(StagingConstants.BUFFER_MAX_AGE, "soon"));
    assertTrue(e.getMessage().contains(StagingConstants.BUFFER_MAX_AGE), e.getMessage());
  }

  @Test
  void valuesAndPerBucketOverrides() {
    StagingOptions o = read(StagingConstants.COMMITTER, "Partitioned", StagingConstants.CONFLICT_MODE, "REPLACE",
        StagingConstants.BUFFER_DIRS, "/d1, /d2 ,", "fs.s3a.multipart.size", "32M",
        "fs.objectcommit.bucket.bucket.staging.upload.threads", "3");
    assertEquals(StagingOptions.Variant.PARTITIONED, o.variant());
    assertEquals(ConflictMode.REPLACE, o.conflictMode());
    assertEquals(List.of(new File("/d1"), new File("/d2")), o.bufferDirs());
    assertEquals(32L * 1024 * 1024, o.partSize(), "S3A's part size when ours is unset");
    assertEquals(3, o.uploadThreads());
    assertEquals(6L * 1024 * 1024, read(StagingConstants.PART_SIZE, "6M").partSize());
    assertEquals(256L * 1024, read("fs.objectcommit.bucket.bucket.staging.inline.task-bytes", "256K")
        .inlineTaskBytes());
    assertEquals(16L * 1024 * 1024, read(StagingConstants.INLINE_TASK_BYTES, "16M").inlineTaskBytes());
    assertEquals(64L * 1024, read(StagingConstants.INLINE_FILE_BYTES, "64K").inlineFileBytes());
  }

  @Test
  void badValuesNameTheKey() {
    assertTrue(assertThrows(IllegalArgumentException.class, () -> read(StagingConstants.CONFLICT_MODE, "merge"))
        .getMessage().contains(StagingConstants.CONFLICT_MODE));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> read(StagingConstants.PART_SIZE, "1M"))
        .getMessage().contains(StagingConstants.PART_SIZE));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> read(StagingConstants.INLINE_TASK_BYTES, "-1"))
        .getMessage().contains(StagingConstants.INLINE_TASK_BYTES));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> read(StagingConstants.INLINE_TASK_BYTES, "17M"))
        .getMessage().contains(StagingConstants.INLINE_TASK_BYTES));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> read(StagingConstants.INLINE_FILE_BYTES, "lots"))
        .getMessage().contains(StagingConstants.INLINE_FILE_BYTES));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> read(StagingConstants.COMMIT_THREADS, "0"))
        .getMessage().contains(StagingConstants.COMMIT_THREADS));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> read(StagingConstants.COMMITTER, "magic"))
        .getMessage().contains(StagingConstants.COMMITTER));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> read(StagingConstants.BUFFER_DIRS, " , "))
        .getMessage().contains(StagingConstants.BUFFER_DIRS));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> read("fs.objectcommit.bucket.bucket.staging.sweep-uploads", "yes")).getMessage()
        .contains("fs.objectcommit.bucket.bucket.staging.sweep-uploads"));
  }

  @Test
  void replacePathsFromTheProtocol() {
    assertEquals(List.of(""), read(StagingConstants.REPLACE_PATHS, "").replacePaths());
    assertEquals(List.of("p=1", "p=2"), read(StagingConstants.REPLACE_PATHS, "p=1,p=2").replacePaths());
  }
}
