package io.objectcommit.staging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.fs.MultipartUpload;
import io.objectcommit.fs.testing.InMemoryObjectStore;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

class PendingUploadsTest {

  @Test
  void listsAndAbortsOnlyOldUploadsUnderThePrefix() throws IOException {
    InMemoryObjectStore store = InMemoryObjectStore.create("bucket");
    AtomicLong clock = new AtomicLong(1_000_000);
    store.setClock(clock::get);
    MultipartUpload old = store.initiateMultipartUpload("t/old.parquet");
    store.initiateMultipartUpload("other/old.parquet");
    clock.set(1_000_000 + Duration.ofHours(2).toMillis());
    MultipartUpload young = store.initiateMultipartUpload("t/young.parquet");
    long now = clock.get() + 1000;

    assertEquals(List.of(old), PendingUploads.list(store, "t/", Duration.ofHours(1), now));
    assertEquals(2, PendingUploads.list(store, "t/", Duration.ZERO, now).size());
    assertEquals(List.of(old), PendingUploads.abort(store, "t/", Duration.ofHours(1), now));
    assertEquals(List.of(young), store.listMultipartUploads("t/"));
    assertEquals(1, store.pendingUploads("other/").size());
  }

  @Test
  void theCommandReportsUsageErrors() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream e = new PrintStream(err, true);
    PrintStream o = new PrintStream(new ByteArrayOutputStream(), true);
    assertEquals(2, PendingUploadsTool.run(new String[] {"purge", "s3a://b/p"}, new Configuration(false), o, e, 0));
    assertEquals(2, PendingUploadsTool.run(new String[] {"list", "s3a://b/p", "--older-than", "soon"},
        new Configuration(false), o, e, 0));
    assertEquals(2, PendingUploadsTool.run(new String[] {"list"}, new Configuration(false), o, e, 0));
    assertTrue(err.toString().contains("usage:"), err.toString());
  }
}
