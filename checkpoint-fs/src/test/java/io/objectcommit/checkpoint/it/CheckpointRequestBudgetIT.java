package io.objectcommit.checkpoint.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.checkpoint.impl.CheckpointFiles;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.proxy.RequestCounts;
import io.objectcommit.testsupport.proxy.S3FaultProxy;
import io.objectcommit.testsupport.proxy.S3Operation;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The request budget of the S3 backend, counted by the proxy: a new checkpoint file written through the
 * checkpoint manager's operations ({@link CheckpointFiles}, which every Spark line's CheckpointFileManagerImpl
 * delegates to) costs at most 2 requests (the data PUT and the manifest's conditional PUT), with no LIST, no COPY
 * and no HEAD.
 */
@S3IntegrationTest
class CheckpointRequestBudgetIT {

  private static final Logger LOG = LoggerFactory.getLogger(CheckpointRequestBudgetIT.class);

  @Test
  void aNewCheckpointFileCostsAtMostTwoRequests(S3TestBucket bucket) throws Exception {
    try (S3FaultProxy proxy = S3FaultProxy.start(bucket.endpoint())) {
      Configuration conf = CkptTestSupport.conf(proxy.endpoint(), bucket);
      Path dir = CkptTestSupport.path(bucket, bucket.prefix() + "query/offsets");
      CheckpointFiles fm = new CheckpointFiles(dir, conf);
      fm.mkdirs(dir);
      write(fm, new Path(dir, "0"), false); // the first write of a process also reads the directory once
      for (int batch = 1; batch <= 20; batch++) {
        RequestCounts before = proxy.counts();
        write(fm, new Path(dir, Integer.toString(batch)), false);
        RequestCounts used = proxy.counts().minus(before);
        LOG.info("checkpoint file {}: {}", batch, used);
        assertTrue(used.total() <= 2, "batch " + batch + ": " + used);
        assertEquals(2, used.succeeded(S3Operation.PUT), "data object and manifest: " + used);
        assertEquals(0, used.of(S3Operation.LIST), used.toString());
        assertEquals(0, used.of(S3Operation.COPY), used.toString());
        assertEquals(0, used.of(S3Operation.HEAD), used.toString());
      }
      // and every file is there, listed from the manifest
      assertEquals(21, fm.list(dir, p -> true).length);
    }
  }

  private static void write(CheckpointFiles fm, Path p, boolean overwrite) throws Exception {
    try (FSDataOutputStream out = fm.createAtomic(p, overwrite)) {
      out.write(("{\"batch\":\"" + p.getName() + "\"}").getBytes(StandardCharsets.UTF_8));
    }
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
