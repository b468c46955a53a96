package io.objectcommit.checkpoint.impl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.checkpoint.CheckpointConstants;
import io.objectcommit.store.config.ConfigReader;
import java.nio.file.Paths;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/** The checkpoint options: defaults, per-authority overrides, and bad values naming their key. */
class CheckpointOptionsTest {

  private static CheckpointOptions options(String authority, String... kv) {
    Configuration conf = new Configuration(false);
    for (int i = 0; i < kv.length; i += 2) {
      conf.set(kv[i], kv[i + 1]);
    }
    return CheckpointOptions.from(new ConfigReader(conf, authority), "ckpt");
  }

  @Test
  void defaults() {
    CheckpointOptions o = options("b");
    assertEquals(CheckpointOptions.BackendKind.S3, o.backend());
    assertEquals("", o.s3Prefix());
    assertEquals(CheckpointConstants.ANCESTOR_TTL_DEFAULT_MS, o.ancestorTtlMs());
    assertEquals(CheckpointConstants.MANIFEST_TTL_DEFAULT_MS, o.manifestTtlMs());
    assertEquals(CheckpointConstants.CAS_ATTEMPTS_DEFAULT, o.casAttempts());
    assertEquals(CheckpointConstants.MISSING_READ_ATTEMPTS_DEFAULT, o.missingReadAttempts());
    assertEquals(CheckpointConstants.BUFFER_MEMORY_DEFAULT, o.bufferMemory());
    assertEquals(Paths.get(System.getProperty("java.io.tmpdir"), "objectcommit-ckpt"), o.bufferDir());
    assertNull(o.localRoot());
    assertTrue(o.localFsync());
    assertEquals(CheckpointConstants.CHECKSUM_PAIR_WAIT_DEFAULT_MS, o.checksumPairWaitMs());
  }

  @Test
  void theChecksumPairWaitIsADurationAndZeroTurnsPairingOff() {
    assertEquals(2_000, options("b", CheckpointConstants.CHECKSUM_PAIR_WAIT, "2s").checksumPairWaitMs());
    assertEquals(0, options("b", CheckpointConstants.CHECKSUM_PAIR_WAIT, "0").checksumPairWaitMs());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> options("b", CheckpointConstants.CHECKSUM_PAIR_WAIT, "-1"));
    assertTrue(e.getMessage().contains(CheckpointConstants.CHECKSUM_PAIR_WAIT), e.getMessage());
  }

  @Test
  void aBucketOverrideWinsForThatBucketOnly() {
    String[] conf = {"fs.objectcommit.checkpoint.s3.cas-attempts", "30",
        "fs.objectcommit.bucket.b1.checkpoint.s3.cas-attempts", "40",
        "fs.objectcommit.bucket.b1.checkpoint.s3.prefix", "ckpt",
        "fs.objectcommit.bucket.b1.checkpoint.buffer.memory", "1M"};
    CheckpointOptions b1 = options("b1", conf);
    assertEquals(40, b1.casAttempts());
    assertEquals("ckpt/", b1.s3Prefix());
    assertEquals(1L << 20, b1.bufferMemory());
    CheckpointOptions b2 = options("b2", conf);
    assertEquals(30, b2.casAttempts());
    assertEquals("", b2.s3Prefix());
  }

  @Test
  void aLocalAuthorityIsConfiguredByItsName() {
    CheckpointOptions o = options("efs1", "fs.objectcommit.bucket.efs1.checkpoint.backend", "LOCAL",
        "fs.objectcommit.bucket.efs1.checkpoint.local.root", "/mnt/efs",
        "fs.objectcommit.bucket.efs1.checkpoint.local.fsync", "false");
    assertEquals(CheckpointOptions.BackendKind.LOCAL, o.backend());
    assertEquals(Paths.get("/mnt/efs"), o.localRoot());
    assertFalse(o.localFsync());
  }

  @Test
  void aBadValueNamesTheKeyInForce() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> options("b", "fs.objectcommit.bucket.b.checkpoint.s3.manifest-ttl", "soon"));
    assertTrue(e.getMessage().contains("fs.objectcommit.bucket.b.checkpoint.s3.manifest-ttl"), e.getMessage());
    assertTrue(e.getMessage().contains("'soon'"), e.getMessage());
    IllegalArgumentException backend = assertThrows(IllegalArgumentException.class,
        () -> options("b", "fs.objectcommit.checkpoint.backend", "nfs"));
    assertTrue(backend.getMessage().contains("fs.objectcommit.checkpoint.backend")
        && backend.getMessage().contains("s3, local"), backend.getMessage());
    IllegalArgumentException attempts = assertThrows(IllegalArgumentException.class,
        () -> options("b", "fs.objectcommit.checkpoint.s3.cas-attempts", "0"));
    assertTrue(attempts.getMessage().contains("fs.objectcommit.checkpoint.s3.cas-attempts"), attempts.getMessage());
  }

  @Test
  void theLocalBackendWithoutARootNamesBothKeys() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> options("efs1", "fs.objectcommit.checkpoint.backend", "local"));
    assertTrue(e.getMessage().contains("ckpt://efs1/"), e.getMessage());
    assertTrue(e.getMessage().contains("fs.objectcommit.checkpoint.local.root")
        && e.getMessage().contains("fs.objectcommit.bucket.efs1.checkpoint.local.root"), e.getMessage());
  }
}
