package io.objectcommit.commit;

import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.Payload;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A job's abort marker: the one way both committers fence task attempts that outlive the abort of their job (Spark
 * cancels running tasks asynchronously, and an executor the driver lost keeps running).
 *
 * <p>The protocol rests on one ordering and on S3's strong read-after-write consistency:
 * <ol>
 *   <li>job abort {@link #create creates} the marker (one exclusive PUT) <b>before</b> it reads the task records
 *       and deletes or aborts what they name;</li>
 *   <li>a task attempt {@link #exists reads} the marker (one GET, a 404 normally) <b>after</b> everything it wrote
 *       became visible (the staging committer: after its record is saved; the direct committer: at task commit,
 *       after its last upload), and when the marker is there it removes what it wrote and fails with
 *       {@link JobAbortedException}.</li>
 * </ol>
 * Whatever the interleaving, an object of the attempt that became visible before the marker's PUT was declared in a
 * task record before that, so job abort, which reads the records after the PUT, finds it; an object that became
 * visible after the PUT is followed by the attempt's read of the marker, which sees it. Both may happen (removing
 * twice is harmless). What neither covers is an attempt that dies between its write and its read of the marker.
 *
 * <p>The marker stays after the abort (a few hundred bytes under the committer's hidden bookkeeping): it must
 * outlive every attempt of the job, and no committer can know when the last one, on an executor the driver lost
 * touch with, has ended.
 */
public final class JobAbortMarker {

  private static final Logger LOG = LoggerFactory.getLogger(JobAbortMarker.class);

  private final String key;
  private final String jobId;

  /**
   * @param key the marker's key, under the committer's bookkeeping of the job
   * @param jobId the job the marker fences
   */
  public JobAbortMarker(String key, String jobId) {
    this.key = key;
    this.jobId = jobId;
  }

  public String key() {
    return key;
  }

  public String jobId() {
    return jobId;
  }

  /**
   * Creates the marker with an exclusive PUT ({@code If-None-Match: *}); one that exists already (an earlier abort
   * of the job) is fine.
   *
   * @return true if this call created it
   */
  public boolean create(ObjectStore store) throws IOException {
    String json = "{\"type\":\"objectcommit/core/job-aborted\",\"version\":1,\"jobId\":\"" + jobId
        + "\",\"abortedAt\":" + System.currentTimeMillis() + "}\n";
    try {
      store.createExclusive(key, Payload.of(json.getBytes(StandardCharsets.UTF_8)));
      return true;
    } catch (FileAlreadyExistsException e) {
      LOG.debug("Job {}: abort marker {} exists already (an earlier abort)", jobId, store.pathOf(key));
      return false;
    }
  }

  /**
   * Whether the marker exists: one GET (its 404 names the missing key, where a HEAD's 404 would cost the store a
   * bucket check to tell a missing bucket apart).
   */
  public boolean exists(ObjectStore store) throws IOException {
    try {
      store.getBytes(key);
      return true;
    } catch (FileNotFoundException e) {
      return false;
    }
  }

  /** Whether the marker exists, asked on a failure path; a marker that cannot be read counts as absent (logged). */
  public boolean existsQuietly(ObjectStore store) {
    try {
      return exists(store);
    } catch (IOException e) {
      LOG.debug("Cannot read the job-abort marker {}: {}", store.pathOf(key), e.toString());
      return false;
    }
  }

  /** The marker's path, for messages. */
  public String path(ObjectStore store) {
    return store.pathOf(key);
  }

  @Override
  public String toString() {
    return "abort marker " + key + " of job " + jobId;
  }
}
