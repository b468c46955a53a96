package io.objectcommit.direct.impl;

import io.objectcommit.commit.CommittedTaskRecord;
import io.objectcommit.commit.JobAbortMarker;
import io.objectcommit.commit.JobAbortedException;
import io.objectcommit.direct.DirectCommitterOptions;
import io.objectcommit.direct.SupersededAttemptException;
import io.objectcommit.direct.files.FileGroup;
import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.spark.SparkRuntime;
import io.objectcommit.store.statistics.StoreStatistics;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.fs.PathIOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One task attempt's writing: creates output streams onto final keys, declares each new file group in the task
 * record before uploading its first file, remembers every file uploaded, and commits or aborts the attempt. Its
 * changes to the task record, and what each deletes, are {@link AttemptRecord}'s.
 *
 * <p>Requests of a task that writes F files in one directory and no earlier attempt: one exclusive PUT of the
 * task record (the declaration), F uploads, at commit one GET of the job-abort marker (a 404) and one conditional
 * PUT of the record. An earlier attempt that crashed costs a GET of the record and one HEAD per file it may have
 * left, at this attempt's commit.
 *
 * <p><b>Late uploads after a job abort.</b> Job abort creates the job-abort marker before it reads the task records
 * ({@link JobAbortMarker}). Task commit reads the marker after the attempt's last upload (no stream may be open) and
 * before it records anything: when the job was aborted, the attempt deletes every file it uploaded, removes its
 * entry (the record too when no other attempt's files are accounted for there) and fails with
 * {@link JobAbortedException}. So an upload that became visible after the abort's marker is deleted by its own
 * attempt, and one that became visible before it was declared in the record the abort reads. Task abort, when the
 * attempt wrote anything, reads the marker too, so that an attempt of an aborted job leaves no task record behind.
 * A task record that vanished under a live attempt was deleted by job abort or job commit (or the cleanup command):
 * with the marker, the attempt deletes its files; without it (the job committed), it deletes nothing, since the
 * committed attempt of its task wrote the same keys.
 */
public final class AttemptWriter implements Closeable {

  private static final Logger LOG = LoggerFactory.getLogger(AttemptWriter.class);

  private final String attemptId;
  private final String jobId;
  private final OutputLocation location;
  private final ObjectStore store;
  private final DirectCommitterOptions options;
  private final AttemptRecord record;
  private final JobAbortMarker abortMarker;
  private final Set<FileGroup> declared = new LinkedHashSet<>();
  private final Map<String, Long> files = Collections.synchronizedMap(new LinkedHashMap<>());
  private final Set<DirectOutputStream> open = ConcurrentHashMap.newKeySet();
  private final boolean taskAttempt;
  private volatile boolean finished;

  AttemptWriter(String attemptId, String taskName, String jobId, OutputLocation location, ObjectStore store,
      DirectCommitterOptions options) {
    this(attemptId, taskName, jobId, location, store, options, true);
  }

  private AttemptWriter(String attemptId, String taskName, String jobId, OutputLocation location, ObjectStore store,
      DirectCommitterOptions options, boolean taskAttempt) {
    this.taskAttempt = taskAttempt;
    this.attemptId = attemptId;
    this.jobId = jobId;
    this.location = location;
    this.store = store;
    this.options = options;
    this.record = new AttemptRecord(attemptId, taskName, jobId, store, location.taskRecordKey(jobId, taskName),
        options.casAttempts());
    this.abortMarker = location.abortMarker(jobId);
  }

  /**
   * A writer for job commit's own files (Parquet summary files): no task record, no declarations; the store
   * stays open when the writer is closed (it is the job commit's).
   */
  static AttemptWriter forJobCommit(String jobId, OutputLocation location, ObjectStore store,
      DirectCommitterOptions options) {
    return new AttemptWriter("job-commit-" + jobId, "job", jobId, location, store, options, false);
  }

  public String attemptId() {
    return attemptId;
  }

  public OutputLocation location() {
    return location;
  }

  ObjectStore store() {
    return store;
  }

  /** A new output stream onto a final key; nothing is visible until it is closed, nothing at all if aborted. */
  public OutputStream create(String key) throws IOException {
    checkActive();
    if (!location.isOutputKey(key)) {
      throw new PathIOException(store.pathOf(key), "task attempt " + attemptId + " may only write under "
          + location + " (outside the committer's bookkeeping and _SUCCESS)");
    }
    Path dir = options.bufferDir();
    Files.createDirectories(dir);
    Path tmp = Files.createTempFile(dir, "objectcommit-direct-", ".buf");
    DirectOutputStream s = new DirectOutputStream(this, key, tmp);
    open.add(s);
    return s;
  }

  /** Size of a file this attempt uploaded, or -1. */
  public long sizeOf(String key) {
    Long s = files.get(key);
    return s == null ? -1 : s;
  }

  /** True if the key is a "directory" of this attempt's output: the destination or a prefix of a file. */
  public boolean isDirectory(String key) {
    if (key.isEmpty() || location.prefix().equals(key + "/") || location.prefix().startsWith(key + "/")) {
      return true;
    }
    String dir = key.endsWith("/") ? key : key + "/";
    synchronized (files) {
      return files.keySet().stream().anyMatch(k -> k.startsWith(dir));
    }
  }

  /** Files uploaded so far under a prefix. */
  public List<String> filesUnder(String prefix) {
    synchronized (files) {
      List<String> l = new ArrayList<>();
      files.keySet().stream().filter(k -> k.startsWith(prefix)).forEach(l::add);
      return l;
    }
  }

  /** Deletes a file this attempt uploaded (a writer's own clean-up); false if it did not upload it. */
  public boolean delete(String key) throws IOException {
    if (files.remove(key) == null) {
      return false;
    }
    store.delete(key);
    return true;
  }

  /** Called by a stream just before its upload: declares the key's group first, once per group. */
  synchronized void beforeUpload(String key) throws IOException {
    checkActive();
    if (!taskAttempt) {
      return;
    }
    FileGroup g = FileGroup.of(key);
    if (declared.contains(g)) {
      return;
    }
    try {
      record.declare(g, snapshotFiles(), !declared.isEmpty());
    } catch (AttemptRecord.RecordGone gone) {
      throw recordGone(gone, "declaring " + store.pathOf(key));
    }
    declared.add(g);
  }

  /**
   * The task record vanished under this attempt: deleted by job abort (the marker exists: the attempt deletes its
   * files and fails with {@link JobAbortedException}) or by job commit or the cleanup command (nothing deleted).
   */
  private IOException recordGone(AttemptRecord.RecordGone gone, String during) throws IOException {
    if (abortMarker.exists(store)) {
      return abortedByJob(during);
    }
    finished = true;
    PathIOException e = new PathIOException(record.path(), "task attempt " + attemptId + " of job " + jobId
        + ", " + during + ": its task record was deleted (by job commit, or by the cleanup command) and the job was"
        + " not aborted; the attempt deletes nothing (the committed attempt of its task may have written the same"
        + " keys)");
    e.initCause(gone);
    return e;
  }

  /**
   * The job was aborted: deletes every file this attempt uploaded, removes its entry from the task record (the
   * record itself when it accounts for no other attempt's files) and returns the exception to fail with.
   */
  private JobAbortedException abortedByJob(String during) throws IOException {
    // open streams are not aborted here (called under this writer's lock from a stream's close): streams still open
    // cannot commit, and task abort aborts them first
    List<String> mine = snapshotFiles();
    finished = true;
    LOG.warn("Task attempt {}, {}: job {} was aborted ({} exists); deleting the {} file(s) the attempt uploaded",
        attemptId, during, jobId, abortMarker.path(store), mine.size());
    Leftovers.delete(store, mine, "task attempt " + attemptId + " of aborted job " + jobId);
    files.clear();
    try {
      record.removeAfterJobAbort();
    } catch (IOException e) {
      LOG.warn("Task attempt {}: could not remove its entry from the task record {} of aborted job {} ({}); the"
          + " cleanup command removes it", attemptId, record.path(), jobId, e.toString());
      LOG.debug("task record clean-up failure", e);
    }
    return new JobAbortedException(store.pathOf(location.prefix()), jobId, attemptId, during + ": the attempt found "
        + abortMarker.path(store) + " and deleted the " + mine.size() + " file(s) it had uploaded");
  }

  void uploaded(String key, long size) {
    files.put(key, size);
  }

  void streamEnded(DirectOutputStream s) {
    open.remove(s);
  }

  private List<String> snapshotFiles() {
    synchronized (files) {
      return new ArrayList<>(files.keySet());
    }
  }

  private void checkActive() throws IOException {
    if (finished) {
      throw new SupersededAttemptException(record.path(), attemptId, "it has already committed or aborted");
    }
  }

  /**
   * Commits the attempt: deletes what earlier attempts of the task left (keys this attempt did not write), then
   * records this attempt and its files as the task's committed output.
   *
   * @return the task record as committed, for a protocol that carries it to the driver; null when it cannot be
   *     carried (job commit then reads it from the store)
   */
  public CommittedTaskRecord commit() throws IOException {
    checkActive();
    if (!open.isEmpty()) {
      throw new IOException("Task attempt " + attemptId + " cannot commit: " + open.size()
          + " output stream(s) still open: " + open);
    }
    // after the last upload (no stream is open), before anything is recorded: one GET, a 404 normally
    if (abortMarker.exists(store)) {
      throw abortedByJob("at task commit");
    }
    Map<String, Long> mine;
    synchronized (files) {
      mine = new LinkedHashMap<>(files);
    }
    List<FileGroup> groups = new ArrayList<>(declared);
    int taskCount = SparkRuntime.jvm().taskPartitions().orElse(0);
    try {
      record.commit(mine, groups, taskCount, statistics().counters());
    } catch (AttemptRecord.RecordGone gone) {
      throw recordGone(gone, "at task commit");
    }
    finished = true;
    LOG.info("Committed task attempt {}: {} file(s); store: {}", attemptId, mine.size(), statistics());
    try {
      return record.written();
    } catch (IOException e) {
      // the commit stands; job commit reads the record from the store instead
      LOG.warn("Task attempt {}: its committed task record {} cannot be carried to the driver ({}); job commit"
          + " reads it from the store", attemptId, record.path(), e.toString());
      LOG.debug("task record hand-over", e);
      return null;
    }
  }

  /** Aborts the attempt: open streams upload nothing, uploaded files are deleted (not those of a committed attempt). */
  public void abort() throws IOException {
    for (DirectOutputStream s : new ArrayList<>(open)) {
      s.abort();
    }
    if (finished && !attemptCommitted()) {
      return;
    }
    List<String> mine = snapshotFiles();
    if (declared.isEmpty() && mine.isEmpty()) {
      finished = true;
      LOG.info("Aborted task attempt {}: it wrote nothing", attemptId);
      return;
    }
    // one GET: an attempt of an aborted job also removes its entry, so that it leaves no task record behind
    if (abortMarker.exists(store)) {
      LOG.info("Aborted task attempt {}: {}", attemptId, abortedByJob("at task abort").getMessage());
      return;
    }
    try {
      record.abort(mine, !declared.isEmpty());
    } catch (AttemptRecord.RecordGone gone) {
      IOException e = recordGone(gone, "at task abort");
      if (e instanceof JobAbortedException) {
        LOG.info("Aborted task attempt {}: {}", attemptId, e.getMessage());
        return;
      }
      finished = true;
      LOG.warn("Task attempt {}: {}", attemptId, e.getMessage());
      return;
    }
    files.clear();
    finished = true;
    LOG.info("Aborted task attempt {}: deleted its {} file(s)", attemptId, mine.size());
  }

  /** Aborts an attempt this JVM did not run: deletes what its entry in the task record accounts for. */
  void abortFromRecord() throws IOException {
    record.abortFromRecord();
    finished = true;
  }

  private boolean attemptCommitted() {
    try {
      return record.committed();
    } catch (IOException e) {
      // unknown: keep the files (deleting committed output would lose data); job commit/abort sorts them out
      LOG.warn("Task attempt {}: could not read its task record {} ({}); treating the attempt as committed and"
          + " keeping its files", attemptId, record.path(), e.toString());
      LOG.debug("task record read failure", e);
      return true;
    }
  }

  public StoreStatistics.Snapshot statistics() {
    return store.statistics().snapshot();
  }

  /** Removes the attempt from the registry and closes its store. */
  @Override
  public void close() throws IOException {
    AttemptRegistry.unregister(this);
    if (taskAttempt) {
      store.close();
    }
  }

  void closeQuietly() {
    try {
      close();
    } catch (IOException | RuntimeException e) {
      LOG.debug("closing {}: {}", attemptId, e.toString());
    }
  }

  @Override
  public String toString() {
    return "attempt " + attemptId + " of job " + jobId + " writing to " + location;
  }
}
