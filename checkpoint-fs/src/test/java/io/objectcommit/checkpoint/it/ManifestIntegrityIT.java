package io.objectcommit.checkpoint.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.store.files.CorruptRecordException;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.proxy.ErrorKind;
import io.objectcommit.testsupport.proxy.ErrorRule;
import io.objectcommit.testsupport.proxy.FaultPlan;
import io.objectcommit.testsupport.proxy.S3FaultProxy;
import io.objectcommit.testsupport.proxy.S3Operation;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

/**
 * The namespace stays valid whatever fails: a corrupted, truncated or newer-version manifest is reported naming
 * the object (never read as an empty directory); a write that fails between its data object and its manifest
 * leaves no visible file; a manifest write that the store applied but answered with an error is recognised on
 * retry as our own.
 */
@S3IntegrationTest
class ManifestIntegrityIT {

  private static final String MANIFESTS = ".ckpt/dirs/";

  private static List<String> manifestKeys(S3TestBucket bucket) {
    return bucket.listKeys(MANIFESTS).stream().filter(k -> !k.endsWith("/root.json")).collect(Collectors.toList());
  }

  private static List<String> names(FileStatus[] st) {
    return Arrays.stream(st).map(s -> s.getPath().getName()).sorted().collect(Collectors.toList());
  }

  @Test
  void aDamagedManifestIsReportedNeverReadAsEmpty(S3TestBucket bucket) throws Exception {
    Configuration conf = CkptTestSupport.conf(bucket.endpoint(), bucket);
    Path dir = CkptTestSupport.path(bucket, bucket.prefix() + "q/offsets");
    try (FileSystem fs = CkptTestSupport.fs(conf, bucket)) {
      CkptTestSupport.write(fs, new Path(dir, "0"), "{}", false);
    }
    List<String> keys = manifestKeys(bucket);
    assertEquals(2, keys.size(), "manifests of q and q/offsets: " + keys);
    String offsetsManifest = null;
    for (String k : keys) {
      String text = bucket.plain().getObjectAsString(bucket.name(), k);
      if (text.contains("\"0\"")) {
        offsetsManifest = k;
      }
    }
    String original = bucket.plain().getObjectAsString(bucket.name(), offsetsManifest);
    for (String[] damage : new String[][] {
        {original.substring(0, original.length() / 2), "not a valid"},
        {"", "empty file"},
        {original.replace("\"version\":2", "\"version\":7"), "version 7"},
        {original.replace("\"version\":2", "\"version\":1"), "is inline in a manifest of version 1"},
        {original.replace("\"file\"", "\"wormhole\""), "no valid kind"}}) {
      bucket.plain().putObject(bucket.name(), offsetsManifest, damage[0]);
      try (FileSystem fs = CkptTestSupport.fs(conf, bucket)) {
        CorruptRecordException e = assertThrows(CorruptRecordException.class, () -> fs.listStatus(dir));
        assertTrue(e.getMessage().contains(offsetsManifest), e.getMessage());
        assertTrue(e.getMessage().contains(damage[1]), damage[1] + " in: " + e.getMessage());
        assertThrows(CorruptRecordException.class, () -> fs.exists(new Path(dir, "0")));
      }
    }
  }

  @Test
  void aWriteThatFailsBeforeItsManifestLeavesNoVisibleFile(S3TestBucket bucket) throws Exception {
    try (S3FaultProxy proxy = S3FaultProxy.start(bucket.endpoint())) {
      Configuration conf = CkptTestSupport.conf(proxy.endpoint(), bucket);
      conf.set("fs.objectcommit.retry.limit", "0"); // the crash point: the manifest write fails for good
      Path dir = CkptTestSupport.path(bucket, bucket.prefix() + "q/commits");
      try (FileSystem fs = CkptTestSupport.fs(conf, bucket)) {
        CkptTestSupport.write(fs, new Path(dir, "0"), "zero", false);
        // The next manifest write (the 2nd PUT from here: data object, then manifest) fails.
        proxy.setFaults(FaultPlan.builder(1).error(ErrorRule.onNth(ErrorKind.INTERNAL_ERROR, 1,
            Set.of(S3Operation.PUT)).matching(MANIFESTS)).build());
        assertThrows(IOException.class, () -> CkptTestSupport.write(fs, new Path(dir, "1"), "one", false));
        proxy.setFaults(FaultPlan.none());
      }
      try (FileSystem fs = CkptTestSupport.fs(conf, bucket)) {
        assertEquals(List.of("0"), names(fs.listStatus(dir)), "the failed file is not visible");
        assertFalse(fs.exists(new Path(dir, "1")));
        assertEquals("zero", CkptTestSupport.read(fs, new Path(dir, "0")));
        assertTrue(bucket.listKeys("q/commits/").stream().noneMatch(k -> k.startsWith(bucket.key("q/commits/1~"))),
            "its data object was removed: " + bucket.listKeys("q/commits/"));
        // and the name is free: the retry of the batch succeeds
        CkptTestSupport.write(fs, new Path(dir, "1"), "one", false);
        assertEquals("one", CkptTestSupport.read(fs, new Path(dir, "1")));
      }
    }
  }

  @Test
  void aManifestWriteAppliedButAnsweredWithAnErrorIsRecognisedOnRetry(S3TestBucket bucket) throws Exception {
    try (S3FaultProxy proxy = S3FaultProxy.start(bucket.endpoint())) {
      Configuration conf = CkptTestSupport.conf(proxy.endpoint(), bucket);
      Path dir = CkptTestSupport.path(bucket, bucket.prefix() + "q/offsets");
      try (FileSystem fs = CkptTestSupport.fs(conf, bucket)) {
        CkptTestSupport.write(fs, new Path(dir, "0"), "zero", false);
        proxy.setFaults(FaultPlan.builder(2).error(ErrorRule.onNth(ErrorKind.INTERNAL_ERROR, 1,
            Set.of(S3Operation.PUT)).matching(MANIFESTS).afterUpstream()).build());
        // The store applies the manifest change, the client sees a 500, retries with If-Match on the old ETag:
        // refused (412), and the write id in the stored manifest shows it was ours.
        CkptTestSupport.write(fs, new Path(dir, "1"), "one", false);
        proxy.setFaults(FaultPlan.none());
      }
      try (FileSystem fs = CkptTestSupport.fs(conf, bucket)) {
        assertEquals(List.of("0", "1"), names(fs.listStatus(dir)));
        assertArrayEquals("one".getBytes(StandardCharsets.UTF_8), CkptTestSupport.read(fs, new Path(dir, "1"))
            .getBytes(StandardCharsets.UTF_8));
      }
    }
  }
}
