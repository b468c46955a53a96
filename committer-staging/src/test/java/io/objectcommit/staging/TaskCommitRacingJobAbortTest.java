package io.objectcommit.staging;

import static io.objectcommit.testsupport.proxy.S3Operation.BUCKET;
import static io.objectcommit.testsupport.proxy.S3Operation.GET;
import static io.objectcommit.testsupport.proxy.S3Operation.HEAD;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.commit.JobAbortedException;
import io.objectcommit.staging.impl.JobAbortStage;
import io.objectcommit.staging.impl.JobLayout;
import io.objectcommit.staging.impl.TaskCommitStage;
import io.objectcommit.store.MultipartUpload;
import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.testing.InMemoryObjectStore;
import java.io.File;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiPredicate;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 17: a task commit racing a job abort (Spark aborts the job while another attempt still commits). Each test
 * runs the job abort at one fixed point of the task commit and checks that no upload stays pending.
 */
class TaskCommitRacingJobAbortTest {

  private static final String DEST = "warehouse/table/";
  private static final String JOB = "7c1d2e3f-1111-2222-3333-444455556666";

  @TempDir
  File tmp;

  private final InMemoryObjectStore memory = InMemoryObjectStore.create("bucket");
  private final JobLayout layout = new JobLayout("bucket", "warehouse/table", JOB);
  private final StagingOptions options = StagingOptions.from(new Configuration(false), "bucket", null);

  /**
   * The in-memory store, with the job abort run once, before ({@code after} false) or after ({@code after} true)
   * the first call of the task commit that {@code when} matches (method name, key).
   */
  private ObjectStore abortingAt(BiPredicate<String, String> when, boolean after) {
    AtomicBoolean done = new AtomicBoolean();
    return (ObjectStore) Proxy.newProxyInstance(ObjectStore.class.getClassLoader(), new Class<?>[] {ObjectStore.class},
        (proxy, method, args) -> {
          String key = args != null && args.length > 0 && args[0] instanceof String ? (String) args[0]
              : args != null && args.length > 0 && args[0] instanceof MultipartUpload
                  ? ((MultipartUpload) args[0]).key() : "";
          boolean fire = when.test(method.getName(), key) && done.compareAndSet(false, true);
          if (fire && !after) {
            abortJob();
          }
          Object result;
          try {
            result = method.invoke(memory, args);
          } catch (InvocationTargetException e) {
            if (fire && after) { // after a call that failed (a 404 read), all the same
              abortJob();
            }
            throw e.getCause();
          }
          if (fire && after) {
            abortJob();
          }
          return result;
        });
  }

  private void abortJob() throws IOException {
    new JobAbortStage(memory, layout, options).abort(false, 2);
  }

  private TaskCommitStage.Result commitTask(ObjectStore store, int files) throws IOException {
    File dir = new File(tmp, "attempt_1_0");
    dir.mkdirs();
    for (int i = 0; i < files; i++) {
      Files.write(new File(dir, "part-0000" + i + "-" + JOB + ".parquet").toPath(),
          StagingProtocolTest.content("data" + i)); // pending uploads: the interleavings include their initiation
    }
    return new TaskCommitStage(store, layout, options).commit(dir, 1, 2, "attempt_1_0", "host");
  }

  private void assertAbortedTaskLeavesNothing(ObjectStore store) {
    JobAbortedException e = assertThrows(JobAbortedException.class, () -> commitTask(store, 3));
    assertEquals(JOB, e.jobId());
    assertTrue(e.getPath().toString().endsWith(layout.taskRecordKey(1)), e.getPath().toString());
    assertEquals(0, memory.pendingUploads(DEST).size(), "no pending upload");
    assertEquals(List.of(), memory.keys(layout.taskRecordKey(1)), "no task record");
  }

  @Test
  void abortBeforeTheTaskStartsUploading() {
    assertAbortedTaskLeavesNothing(abortingAt((m, k) -> m.equals("initiateMultipartUpload"), false));
  }

  @Test
  void abortBetweenUploadInitiationAndTheTaskRecord() {
    assertAbortedTaskLeavesNothing(abortingAt((m, k) -> m.equals("initiateMultipartUpload"), true));
  }

  @Test
  void abortJustBeforeTheTaskRecordIsSaved() {
    assertAbortedTaskLeavesNothing(abortingAt((m, k) -> m.equals("put") && k.equals(layout.taskRecordKey(1)), false));
  }

  @Test
  void abortAfterTheTaskRecordIsSavedBeforeTheMarkerIsRead() {
    assertAbortedTaskLeavesNothing(abortingAt((m, k) -> m.equals("put") && k.equals(layout.taskRecordKey(1)), true));
  }

  @Test
  void abortAfterTheTaskCommitFindsTheRecord() throws IOException {
    assertTrue(commitTask(abortingAt((m, k) -> m.equals("getBytes") && k.equals(layout.jobAbortedKey()), true), 3)
        .won(), "the marker was not there when the task read it");
    assertEquals(0, memory.pendingUploads(DEST).size(), "the job abort aborted the recorded uploads");
  }

  @Test
  void aTaskCommitAfterTheAbortFinishedLeavesNothing() throws IOException {
    abortJob();
    assertAbortedTaskLeavesNothing(memory);
  }

  @Test
  void taskCommitCostsOneGetForTheMarker() throws IOException {
    commitTask(memory, 2);
    assertEquals(1, memory.counts().of(GET), "the marker's read: " + memory.counts());
    assertEquals(0, memory.counts().of(HEAD), memory.counts().toString());
    assertEquals(0, memory.counts().of(BUCKET), "a GET's 404 needs no bucket check: " + memory.counts());
  }
}
