package io.objectcommit.checkpoint.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.checkpoint.CheckpointConstants;
import io.objectcommit.checkpoint.impl.CheckpointFiles;
import io.objectcommit.store.config.ConfigReader;
import io.objectcommit.store.impl.client.SdkBindings;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.proxy.RequestCounts;
import io.objectcommit.testsupport.proxy.S3FaultProxy;
import io.objectcommit.testsupport.proxy.S3Operation;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.VersionInfo;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The request budget of the S3 backend, counted by the proxy: a new checkpoint file written through the
 * checkpoint manager's operations ({@link CheckpointFiles}, which every Spark line's CheckpointFileManagerImpl
 * delegates to) costs 1 request when small, as most checkpoint files are (the manifest's conditional PUT, which
 * carries the bytes: format version 2), 2 when larger than {@code inline.max-file-size} (the data PUT and the
 * manifest's conditional PUT), with no LIST, no COPY and no HEAD; the same on both SDK bindings. A state file and its
 * checksum file closed at once (Spark 4.1) cost 1 request together.
 */
@S3IntegrationTest
class CheckpointRequestBudgetIT {

  private static final Logger LOG = LoggerFactory.getLogger(CheckpointRequestBudgetIT.class);

  /** On each SDK binding, forced as a user would ({@code fs.objectcommit.sdk}). */
  @ParameterizedTest(name = "SDK {0}")
  @ValueSource(strings = {"v1", "v2"})
  void aNewCheckpointFileCostsOneRequestAndALargeOneTwo(String sdk, S3TestBucket bucket) throws Exception {
    budget(sdk, bucket, "query-" + sdk);
  }

  /** The same requests, operation by operation, whichever SDK sends them. */
  @Test
  void bothSdksSendTheSameRequests(S3TestBucket bucket) throws Exception {
    RequestCounts v1 = budget("v1", bucket, "same-v1");
    RequestCounts v2 = budget("v2", bucket, "same-v2");
    LOG.info("20 checkpoint files: SDK v1 {}, SDK v2 {}", v1, v2);
    assertEquals(v1, v2, "per-operation request counts of 20 checkpoint files");
  }

  /**
   * With the user's settings (no {@code fs.objectcommit.sdk}), the binding is the SDK of the line's Hadoop: v2 on
   * Hadoop 3.4 (the Spark 4 lines, where SDK v1 is absent), v1 on Hadoop 3.3 (Spark 3.5); and the budget holds.
   */
  @Test
  void autoTakesTheSdkOfThisLinesHadoop(S3TestBucket bucket) throws Exception {
    String[] v = VersionInfo.getVersion().split("\\.");
    boolean hadoop34 = Integer.parseInt(v[0]) * 100 + Integer.parseInt(v[1]) >= 304;
    Configuration conf = CkptTestSupport.conf(bucket.endpoint(), bucket);
    assertEquals(hadoop34 ? "v2" : "v1", SdkBindings.choose(new ConfigReader(conf, bucket.name())).name(),
        "Hadoop " + VersionInfo.getVersion());
    budget("auto", bucket, "query-auto");
  }

  /**
   * Writes 21 small checkpoint files and a large one, and checks the budget of all but the first; returns their
   * requests.
   */
  private static RequestCounts budget(String sdk, S3TestBucket bucket, String query) throws Exception {
    Assumptions.assumeTrue(!"v1".equals(sdk) || sdkV1Present(), "no AWS SDK v1 on this line's class path");
    try (S3FaultProxy proxy = S3FaultProxy.start(bucket.endpoint())) {
      Configuration conf = CkptTestSupport.conf(proxy.endpoint(), bucket);
      conf.set("fs.objectcommit.sdk", sdk);
      Path dir = CkptTestSupport.path(bucket, bucket.prefix() + query + "/offsets");
      CheckpointFiles fm = new CheckpointFiles(dir, conf);
      fm.mkdirs(dir);
      write(fm, new Path(dir, "0"), false); // the first write of a process also reads the directory once
      RequestCounts start = proxy.counts();
      for (int batch = 1; batch <= 20; batch++) {
        RequestCounts before = proxy.counts();
        write(fm, new Path(dir, Integer.toString(batch)), false);
        RequestCounts used = proxy.counts().minus(before);
        LOG.info("SDK {}, checkpoint file {}: {}", sdk, batch, used);
        assertEquals(1, used.total(), "batch " + batch + ": " + used);
        assertEquals(1, used.succeeded(S3Operation.PUT), "the manifest, with the file in it: " + used);
      }
      RequestCounts before = proxy.counts();
      try (FSDataOutputStream out = fm.createAtomic(new Path(dir, "large"), false)) {
        out.write(new byte[(int) CheckpointConstants.INLINE_MAX_FILE_SIZE_DEFAULT + 1]);
      }
      RequestCounts large = proxy.counts().minus(before);
      assertEquals(2, large.total(), "a large file: " + large);
      assertEquals(2, large.succeeded(S3Operation.PUT), "data object and manifest: " + large);
      RequestCounts all = proxy.counts().minus(start);
      // and every file is there, listed from the manifest
      assertEquals(22, fm.list(dir, p -> true).length);
      return all;
    }
  }

  private static boolean sdkV1Present() {
    try {
      Class.forName("com.amazonaws.services.s3.AmazonS3", false, CheckpointRequestBudgetIT.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException e) {
      return false;
    }
  }

  private static void write(CheckpointFiles fm, Path p, boolean overwrite) throws Exception {
    try (FSDataOutputStream out = fm.createAtomic(p, overwrite)) {
      out.write(("{\"batch\":\"" + p.getName() + "\"}").getBytes(StandardCharsets.UTF_8));
    }
  }

  /**
   * Spark 4.1's checksum manager creates each state file and its {@code .crc} together and closes them in two
   * threads at once: the two cost one request, the manifest's conditional PUT carrying both, with the user's
   * settings. Five state files and their checksum files: 5 PUTs.
   */
  @Test
  void aStateFileAndItsChecksumFileClosedAtOnceCostOneRequest(S3TestBucket bucket) throws Exception {
    ExecutorService threads = Executors.newFixedThreadPool(2);
    try (S3FaultProxy proxy = S3FaultProxy.start(bucket.endpoint())) {
      Configuration conf = CkptTestSupport.conf(proxy.endpoint(), bucket);
      Path dir = CkptTestSupport.path(bucket, bucket.prefix() + "query/state/0/3");
      CheckpointFiles fm = new CheckpointFiles(dir, conf);
      fm.mkdirs(dir);
      write(fm, new Path(dir, "0.delta"), false); // the first write of a process also reads the directory once
      RequestCounts before = proxy.counts();
      for (int version = 1; version <= 5; version++) {
        FSDataOutputStream delta = fm.createAtomic(new Path(dir, version + ".delta"), false);
        FSDataOutputStream crc = fm.createAtomic(new Path(dir, version + ".delta.crc"), false);
        delta.write(("state " + version).getBytes(StandardCharsets.UTF_8));
        crc.write(("{\"algorithm\":\"CRC32C\",\"version\":" + version + "}").getBytes(StandardCharsets.UTF_8));
        CyclicBarrier start = new CyclicBarrier(2);
        List<Future<Object>> closes = threads.invokeAll(List.of(closeAfter(start, delta), closeAfter(start, crc)));
        for (Future<Object> close : closes) {
          close.get(60, TimeUnit.SECONDS);
        }
      }
      RequestCounts used = proxy.counts().minus(before);
      LOG.info("5 state files and their checksum files, closed in pairs: {}", used);
      assertEquals(5, used.total(), used.toString());
      assertEquals(5, used.succeeded(S3Operation.PUT), "one manifest write per pair: " + used);
      assertEquals(11, fm.list(dir, p -> true).length, "every file is there");
    } finally {
      threads.shutdownNow();
    }
  }

  private static Callable<Object> closeAfter(CyclicBarrier start, FSDataOutputStream out) {
    return () -> {
      start.await(60, TimeUnit.SECONDS);
      out.close();
      return null;
    };
  }

  @Test
  void aCancelledStreamLeavesNothing(S3TestBucket bucket) throws Exception {
    try (S3FaultProxy proxy = S3FaultProxy.start(bucket.endpoint())) {
      Configuration conf = CkptTestSupport.conf(proxy.endpoint(), bucket);
      Path dir = CkptTestSupport.path(bucket, bucket.prefix() + "query/commits");
      CheckpointFiles fm = new CheckpointFiles(dir, conf);
      fm.mkdirs(dir);
      RequestCounts before = proxy.counts();
      FSDataOutputStream out = fm.createAtomic(new Path(dir, "7"), false);
      out.write("partial".getBytes(StandardCharsets.UTF_8));
      CheckpointFiles.cancel(out);
      assertEquals(0, proxy.counts().minus(before).total(), "nothing was sent");
      assertTrue(!fm.exists(new Path(dir, "7")));
      assertTrue(bucket.listKeys("query/commits/").isEmpty(), "no object: " + bucket.listKeys(""));
    }
  }
}
