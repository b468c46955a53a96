package io.objectcommit.checkpoint.it;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.checkpoint.CheckpointFileSystem;
import io.objectcommit.testsupport.S3Endpoint;
import io.objectcommit.testsupport.S3IntegrationTest;
import java.io.FileNotFoundException;
import java.net.URI;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;

/**
 * A {@code ckpt://} authority whose bucket does not exist fails when it is opened, with the first failure of the
 * conditional-write check: the operation, the bucket, the endpoint and why, never the probe's cleanup.
 */
@S3IntegrationTest
class CheckpointBadBucketIT {

  @Test
  void aMissingBucketIsNamedWhenTheAuthorityIsOpened(S3Endpoint endpoint) {
    String bucket = "oc-missing-" + UUID.randomUUID().toString().substring(0, 8);
    Configuration conf = new Configuration();
    endpoint.s3aOptions().forEach(conf::set);
    conf.set("fs.ckpt.impl", CheckpointFileSystem.class.getName());
    conf.setBoolean("fs.ckpt.impl.disable.cache", true);
    FileNotFoundException e = assertThrows(FileNotFoundException.class,
        () -> FileSystem.get(URI.create("ckpt://" + bucket + "/"), conf));
    String m = e.getMessage();
    assertTrue(m.startsWith("initialize ckpt://" + bucket + "/: "), "the user's operation: " + m);
    assertTrue(m.contains("bucket '" + bucket + "'") && m.contains(endpoint.uri().toString()), m);
    assertTrue(m.contains("the bucket does not exist"), m);
    assertFalse(m.contains("op_delete"), "not the probe's cleanup: " + m);
  }
}
