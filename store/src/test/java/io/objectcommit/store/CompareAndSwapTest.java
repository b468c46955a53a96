package io.objectcommit.store;


import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.store.config.ConfigReader;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.junit.jupiter.api.Test;

class CompareAndSwapTest {

  private final List<Long> sleeps = new ArrayList<>();

  @Test
  void conflictsAreRetriedWithAFreshReadAndBackoffFromTheSecond() throws IOException {
    CompareAndSwap cas = new CompareAndSwap(5, sleeps::add);
    List<Integer> attempts = new ArrayList<>();
    String r = cas.run("s3://b/k", "record", n -> {
      attempts.add(n);
      return CompareAndSwap.write(() -> {
        if (n == 0) {
          throw new ObjectChangedException("s3://b/k", "put", "etag");
        }
        if (n == 1) {
          throw new FileAlreadyExistsException("s3://b/k");
        }
        if (n == 2) {
          throw new FileNotFoundException("s3://b/k");
        }
        return "done";
      });
    });
    assertEquals("done", r);
    assertEquals(List.of(0, 1, 2, 3), attempts);
    assertEquals(List.of(50L, 100L), sleeps, "no wait after the first conflict");
  }

  @Test
  void givesUpAfterTheConfiguredAttempts() {
    CompareAndSwap cas = new CompareAndSwap(3, sleeps::add);
    AtomicInteger n = new AtomicInteger();
    CasConflictException e = assertThrows(CasConflictException.class, () -> cas.run("s3://b/k", "record", a -> {
      n.incrementAndGet();
      return CompareAndSwap.write(() -> {
        throw new ObjectChangedException("s3://b/k", "put", "etag");
      });
    }));
    assertEquals(3, n.get());
    assertEquals(3, e.attempts());
    assertEquals("s3://b/k", e.getPath().toString());
    assertTrue(e.getCause() instanceof ObjectChangedException);
  }

  @Test
  void theSameExceptionsOutsideTheWriteAreFailuresNotConflicts() {
    CompareAndSwap cas = new CompareAndSwap(5, sleeps::add);
    FileNotFoundException missing = new FileNotFoundException("child");
    AtomicInteger n = new AtomicInteger();
    FileNotFoundException e = assertThrows(FileNotFoundException.class, () -> cas.run("s3://b/k", "record", a -> {
      n.incrementAndGet();
      throw missing;
    }));
    assertSame(missing, e);
    assertEquals(1, n.get());
  }

  @Test
  void attemptsComeFromTheGeneralKeyUnlessAComponentKeyIsSetPerBucketToo() {
    Configuration conf = new Configuration(false);
    assertEquals(StoreConstants.CAS_ATTEMPTS_DEFAULT, CompareAndSwap.attempts(new ConfigReader(conf, "b"), "x.y"));
    conf.set(StoreConstants.CAS_ATTEMPTS, "7");
    assertEquals(7, CompareAndSwap.attempts(new ConfigReader(conf, "b"), "fs.objectcommit.checkpoint.s3.cas-attempts"));
    conf.set("fs.objectcommit.checkpoint.s3.cas-attempts", "9");
    assertEquals(9, CompareAndSwap.attempts(new ConfigReader(conf, "b"), "fs.objectcommit.checkpoint.s3.cas-attempts"));
    conf.set("fs.objectcommit.bucket.b.cas-attempts", "3");
    assertEquals(3, CompareAndSwap.attempts(new ConfigReader(conf, "b")));
    assertEquals(7, CompareAndSwap.attempts(new ConfigReader(conf, "other")));
    conf.set(StoreConstants.CAS_ATTEMPTS, "0");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> CompareAndSwap.attempts(new ConfigReader(conf, "other")));
    assertTrue(e.getMessage().contains(StoreConstants.CAS_ATTEMPTS), e.getMessage());
  }
}
