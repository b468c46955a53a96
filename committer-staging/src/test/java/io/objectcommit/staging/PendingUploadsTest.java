package io.objectcommit.staging;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.objectcommit.store.MultipartUpload;
import io.objectcommit.store.testing.InMemoryObjectStore;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
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
}
