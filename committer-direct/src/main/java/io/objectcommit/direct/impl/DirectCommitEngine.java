package io.objectcommit.direct.impl;

import io.objectcommit.commit.CommittedTaskRecord;
import io.objectcommit.commit.CommitterStatistics;
import io.objectcommit.commit.JobId;
import io.objectcommit.commit.SuccessBuilder;
import io.objectcommit.commit.files.SuccessData;
import io.objectcommit.direct.DirectCommitterConstants;
import io.objectcommit.direct.DirectCommitterOptions;
import io.objectcommit.direct.SpeculationNotSupportedException;
import io.objectcommit.direct.files.CommittedFile;
import io.objectcommit.direct.files.DirectTaskRecord;
import io.objectcommit.direct.files.JobMarker;
import io.objectcommit.store.CleanUp;
import io.objectcommit.store.Listings;
import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.ObjectStores;
import io.objectcommit.store.Parallel;
import io.objectcommit.store.WriteCondition;
import io.objectcommit.store.audit.AuditContext;
import io.objectcommit.store.guarantee.ProbeSite;
import io.objectcommit.store.guarantee.StoreGuarantee;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The direct commit protocol, shared by {@code DirectParquetOutputCommitter} and {@code DirectPathOutputCommitter}:
 *
 * <ul>
 *   <li>job setup: the speculation guard decides between direct and classic for the whole job and records the
 *       decision in the job configuration; for a direct job, the store guarantee check of the guarantees the
 *       protocol relies on (once per bucket and endpoint in the driver JVM, docs/stores.md), whose verdict the store
 *       module writes into the job configuration for the job's tasks: no other request;</li>
 *   <li>task setup: registers the attempt's {@link AttemptWriter}; the work path maps onto the final keys;</li>
 *   <li>writing: one upload per file on close; the first file of each group is preceded by a declaration in the
 *       task record;</li>
 *   <li>task commit: removes earlier attempts' leftovers, records the committed files (one conditional PUT);</li>
 *   <li>task abort: deletes the attempt's files;</li>
 *   <li>job commit: reads every task record (one GET per task, found by number and by one LIST of the job's
 *       bookkeeping), removes leftovers, writes the commit marker and {@code _SUCCESS}, deletes the bookkeeping;</li>
 *   <li>job abort: creates the job-abort marker, then deletes every file any task record accounts for, and the
 *       bookkeeping (the marker stays); a task attempt reads the marker at task commit and, when the job was
 *       aborted, deletes its files and fails with {@link io.objectcommit.commit.JobAbortedException}.</li>
 * </ul>
 */
public final class DirectCommitEngine {

  private static final Logger LOG = LoggerFactory.getLogger(DirectCommitEngine.class);

  /** What the direct protocol relies on: task records (exclusive create, compare-and-swap), aborted uploads. */
  private static final Set<StoreGuarantee> GUARANTEES = DirectCommitterConstants.STORE_GUARANTEES;
  private static final String WHO = "the direct committer";

  /** Where the check, where one runs, writes: the destination's bookkeeping, which the job writes anyway. */
  private ProbeSite probeSite() {
    return ProbeSite.under(location.probePrefix());
  }

  /** How a job commits. */
  public enum Mode {
    DIRECT, CLASSIC
  }

  private final OutputLocation location;
  private final DirectCommitterOptions options;
  private final SpeculationGuard guard;
  private final String committerName;

  public DirectCommitEngine(Path outputPath, Configuration conf, String committerName) {
    this(outputPath, conf, committerName, new SpeculationGuard());
  }

  public DirectCommitEngine(Path outputPath, Configuration conf, String committerName, SpeculationGuard guard) {
    this.location = OutputLocation.of(outputPath);
    this.options = DirectCommitterOptions.from(conf, location.bucket());
    this.guard = guard;
    this.committerName = committerName;
  }

  public OutputLocation location() {
    return location;
  }

  public DirectCommitterOptions options() {
    return options;
  }

  // ------------------------------------------------------------------------------------------------------------
  // Mode: the speculation guard
  // ------------------------------------------------------------------------------------------------------------

  /**
   * The job's mode: as job setup recorded it in the configuration, else decided now by the speculation guard.
   *
   * @throws SpeculationNotSupportedException if speculation is on and the options say fail
   * @throws io.objectcommit.direct.SparkEnvironmentUnreadableException if Spark runs but cannot be read
   */
  public Mode mode(Configuration conf) throws IOException {
    String recorded = conf.getTrimmed(DirectCommitterConstants.INTERNAL_MODE, "");
    if (!recorded.isEmpty()) {
      return Mode.valueOf(recorded);
    }
    List<String> speculation = guard.enabledBy(conf);
    if (speculation.isEmpty()) {
      return Mode.DIRECT;
    }
    String message = SpeculationGuard.message(speculation);
    if (options.onSpeculation() == DirectCommitterOptions.OnSpeculation.CLASSIC) {
      LOG.warn("{} -- {}={}: this job commits to {} with the classic committer instead", message,
          DirectCommitterConstants.ON_SPECULATION, DirectCommitterConstants.ON_SPECULATION_CLASSIC, location);
      return Mode.CLASSIC;
    }
    LOG.error(message);
    throw new SpeculationNotSupportedException(message);
  }

  /**
   * Job setup: decides the mode and records it (and the work file system) in the job configuration. A direct job
   * checks the store here, on the driver, before any task writes: a store that fails a guarantee fails the job
   * now, and the verdict reaches the job's tasks in its configuration, so that executors do not check again.
   */
  public Mode setupJob(JobContext job) throws IOException {
    Configuration conf = job.getConfiguration();
    conf.unset(DirectCommitterConstants.INTERNAL_MODE);
    Mode mode = mode(conf);
    conf.set(DirectCommitterConstants.INTERNAL_MODE, mode.name());
    conf.set("fs." + DirectCommitterConstants.WORK_SCHEME + ".impl", DirectWorkFileSystem.class.getName());
    if (mode == Mode.DIRECT) {
      JobId id = JobId.setUp(conf, Objects.toString(job.getJobID(), null));
      try (ObjectStore store = ObjectStores.open(location.bucket(), conf, jobAudit(id))) {
        store.requireGuarantees(GUARANTEES, WHO, probeSite());
      }
      LOG.info("Job {}: direct commit to {} ({})", id, location, options);
    }
    return mode;
  }

  // ------------------------------------------------------------------------------------------------------------
  // Tasks
  // ------------------------------------------------------------------------------------------------------------

  /** Registers the attempt's writer (opens the store; no request). */
  public AttemptWriter setupTask(TaskAttemptContext task) throws IOException {
    AttemptWriter existing = AttemptRegistry.get(task.getTaskAttemptID().toString());
    if (existing != null && existing.location().bucket().equals(location.bucket())) {
      return existing;
    }
    AttemptWriter w = newWriter(task);
    AttemptRegistry.register(w);
    return w;
  }

  private AttemptWriter newWriter(TaskAttemptContext task) throws IOException {
    Configuration conf = task.getConfiguration();
    conf.set("fs." + DirectCommitterConstants.WORK_SCHEME + ".impl", DirectWorkFileSystem.class.getName());
    JobId id = JobId.resolve(conf, Objects.toString(task.getJobID(), null));
    ObjectStore store = ObjectStores.open(location.bucket(), conf, AuditContext.of(AuditContext.DIRECT)
        .withJob(id.id()).withTaskAttempt(task.getTaskAttemptID().toString()));
    try {
      // task records (exclusive create, compare-and-swap) and aborted uploads: docs/stores.md
      store.requireGuarantees(GUARANTEES, WHO, probeSite());
    } catch (IOException | RuntimeException e) {
      store.close();
      throw e;
    }
    return new AttemptWriter(task.getTaskAttemptID().toString(), OutputLocation.taskName(task.getTaskAttemptID()),
        id.id(), location, store, options);
  }

  public Path workPath(TaskAttemptContext task) {
    return location.workPath(task.getTaskAttemptID().toString());
  }

  /**
   * Commits the attempt; on failure the writer stays registered for the abortTask that follows.
   *
   * @return the committed task record, for a protocol that carries it to the driver (null: none to carry)
   */
  public CommittedTaskRecord commitTask(TaskAttemptContext task) throws IOException {
    AttemptWriter w = setupTask(task);
    CommittedTaskRecord committed = w.commit();
    w.close();
    return committed;
  }

  /**
   * Aborts the attempt. When this JVM has no writer for it (a task set up elsewhere), what the task record says
   * the attempt declared is deleted instead.
   *
   * <p>Spark interrupts the thread of a task it cancels (Spark 4 does for every SQL job) and then aborts the task
   * on that thread. The store's client refuses every request of an interrupted thread, so the abort's clean-up
   * (the job-abort marker read, the deletion of files uploaded after the job abort, the task record) would fail and
   * leave them: the clean-up runs with the interrupt set aside, and the interrupt is restored for Spark afterwards.
   */
  public void abortTask(TaskAttemptContext task) throws IOException {
    CleanUp.run(() -> abortAttempt(task));
  }

  private void abortAttempt(TaskAttemptContext task) throws IOException {
    AttemptWriter w = AttemptRegistry.get(task.getTaskAttemptID().toString());
    if (w != null) {
      try {
        w.abort();
      } finally {
        w.close();
      }
      return;
    }
    try (AttemptWriter orphan = newWriter(task)) {
      orphan.abortFromRecord();
    }
  }

  // ------------------------------------------------------------------------------------------------------------
  // Job commit and abort
  // ------------------------------------------------------------------------------------------------------------

  /** What job commit found, for the committers' own additions (Parquet summary files). */
  public static final class CommittedJob {
    public final OutputLocation location;
    public final String jobId;
    public final List<CommittedFile> files;
    public final ObjectStore store;

    CommittedJob(OutputLocation location, String jobId, List<CommittedFile> files, ObjectStore store) {
      this.location = location;
      this.jobId = jobId;
      this.files = files;
      this.store = store;
    }
  }

  /** A step a committer adds to job commit, after leftovers are removed and before {@code _SUCCESS}. */
  public interface BeforeSuccess {
    void run(CommittedJob job) throws IOException;
  }

  /**
   * Commits the job: reads its task records, deletes what uncommitted attempts left, writes the commit marker and
   * {@code _SUCCESS}, deletes the bookkeeping.
   *
   * @param handedOver task records the tasks' attempts wrote, carried to the driver by the commit protocol, by key
   *     (empty: every record is read from the store)
   */
  public void commitJob(JobContext job, BeforeSuccess beforeSuccess, Map<String, CommittedTaskRecord> handedOver)
      throws IOException {
    Configuration conf = job.getConfiguration();
    JobId id = JobId.resolve(conf, Objects.toString(job.getJobID(), null));
    long start = System.currentTimeMillis();
    try (ObjectStore store = ObjectStores.open(location.bucket(), conf, jobAudit(id));
        Parallel parallel = new Parallel("objectcommit-direct-job-commit", options.commitThreads())) {
      Map<String, DirectTaskRecord> records = handedOver.isEmpty()
          ? JobBookkeeping.all(store, location, id.id(), parallel, window())
          : JobBookkeeping.withHandedOver(store, location, id.id(), parallel, window(), handedOver);
      long read = System.currentTimeMillis();
      Set<String> leftovers = new TreeSet<>();
      List<CommittedFile> files = new ArrayList<>();
      Map<String, Long> taskStats = new TreeMap<>();
      int uncommitted = 0;
      for (DirectTaskRecord r : records.values()) {
        if (r.committedAttempt == null) {
          uncommitted++;
          leftovers.addAll(JobBookkeeping.everything(store, r));
        } else {
          leftovers.addAll(JobBookkeeping.leftovers(store, r));
          files.addAll(r.committedFiles);
          r.statistics.forEach((k, v) -> taskStats.merge(k, v, Long::sum));
        }
      }
      if (uncommitted > 0) {
        LOG.warn("Job {}: {} task(s) have output but never committed; their files are deleted", id, uncommitted);
      }
      Leftovers.delete(store, leftovers, "uncommitted task attempts of job " + id.id());
      if (beforeSuccess != null) {
        beforeSuccess.run(new CommittedJob(location, id.id(), files, store));
      }
      long cleaned = System.currentTimeMillis();
      JobMarker marker = new JobMarker();
      marker.jobId = id.id();
      marker.timestamp = System.currentTimeMillis();
      marker.tasks = records.size();
      marker.files = files.size();
      JobMarker.CODEC.save(store, location.jobMarkerKey(id.id()), marker, WriteCondition.none());
      int stageTasks = records.values().stream().mapToInt(r -> r.taskCount).max().orElse(0);
      success(id, records.size(), files, leftovers.size(), start, taskStats)
          .diagnostic(DirectCommitterConstants.DIAGNOSTIC_STAGE_TASKS,
              stageTasks > 0 ? Integer.toString(stageTasks) : "unknown")
          .write(store, location.successKey());
      long marked = System.currentTimeMillis();
      List<String> bookkeeping = new ArrayList<>(records.keySet());
      bookkeeping.add(location.jobMarkerKey(id.id()));
      store.deleteBatch(bookkeeping);
      long end = System.currentTimeMillis();
      LOG.info("Job {} committed to {}: {} task(s), {} file(s), {} leftover(s) removed in {} ms (task records read"
          + " in {} ms, leftovers and summary files {} ms, commit marker and _SUCCESS {} ms, bookkeeping deleted in {}"
          + " ms); job commit store requests: {}", id, location, records.size(), files.size(), leftovers.size(),
          end - start, read - start, cleaned - read, marked - cleaned, end - marked, store.statistics().snapshot());
    }
  }

  /** Task records read at once: a few per thread, so that the threads stay busy while memory stays bounded. */
  private int window() {
    return Math.max(64, options.commitThreads() * 4);
  }

  private SuccessBuilder success(JobId id, int tasks, List<CommittedFile> files, int leftovers, long start,
      Map<String, Long> taskStats) {
    SuccessBuilder s = new SuccessBuilder(DirectCommitterConstants.COMMITTER_NAME, id)
        .description(committerName + " committed " + files.size() + " file(s) of " + tasks + " task(s) to "
            + location)
        .committed(files.size(), files.stream().mapToLong(f -> f.size).sum())
        .metric(CommitterStatistics.JOB_TASKS, tasks)
        .metric(CommitterStatistics.JOB_LEFTOVERS_DELETED, leftovers)
        .metric(CommitterStatistics.JOB_COMMIT_MS, System.currentTimeMillis() - start)
        .diagnostic("destination", location.toString())
        .diagnostic(DirectCommitterConstants.ON_SPECULATION, options.onSpeculation().name().toLowerCase(Locale.ROOT))
        .taskCounters(taskStats);
    for (int i = 0; i < files.size() && i < options.successMaxFilenames(); i++) {
      s.filename(files.get(i).key);
    }
    return s;
  }

  /**
   * Job abort: first creates the job-abort marker (one exclusive PUT, kept afterwards), then deletes every file of
   * the job that its task records account for, its {@code _SUCCESS} if any, and the records. A task attempt still
   * running (Spark cancels tasks asynchronously; an executor the driver lost keeps writing) reads the marker at task
   * commit, after its last upload, and deletes its files itself: see {@link io.objectcommit.commit.JobAbortMarker}
   * for why one of the two always sees the other's files.
   */
  public void abortJob(JobContext job) throws IOException {
    JobId id = JobId.resolve(job.getConfiguration(), Objects.toString(job.getJobID(), null));
    try (ObjectStore store = ObjectStores.open(location.bucket(), job.getConfiguration(), jobAudit(id))) {
      int n = cleanup(store, id.id(), false, true);
      LOG.info("Job {} aborted: {} object(s) of it deleted from {}; store requests: {}", id, n, location,
          store.statistics().snapshot());
    }
  }

  /**
   * Removes a job's files and bookkeeping (job abort, and the cleanup command).
   *
   * @param keepIfCommitted when the job's commit marker exists, keep its files and remove only the bookkeeping
   * @return the number of objects deleted
   */
  public int cleanup(ObjectStore store, String jobId, boolean keepIfCommitted) throws IOException {
    return cleanup(store, jobId, keepIfCommitted, false);
  }

  /**
   * @param fence create the job-abort marker before anything is read (job abort; the cleanup command runs when the
   *     driver is gone and does not fence)
   */
  private int cleanup(ObjectStore store, String jobId, boolean keepIfCommitted, boolean fence) throws IOException {
    if (fence) {
      location.abortMarker(jobId).create(store); // before the records are read: see JobAbortMarker
    }
    boolean committed = false;
    if (keepIfCommitted) {
      try {
        JobMarker.CODEC.load(store, location.jobMarkerKey(jobId));
        committed = true;
      } catch (FileNotFoundException e) {
        committed = false;
      }
    }
    Map<String, DirectTaskRecord> records;
    try (Parallel parallel = new Parallel("objectcommit-direct-job-cleanup", options.commitThreads())) {
      records = JobBookkeeping.all(store, location, jobId, parallel, window());
    }
    Set<String> doomed = new TreeSet<>();
    // job abort: per kept record (an attempt still WRITING), per attempt, the keys found now
    Map<String, Map<String, Set<String>>> foundInKept = new TreeMap<>();
    if (!committed) {
      for (Map.Entry<String, DirectTaskRecord> r : records.entrySet()) {
        if (fence && KeptTaskRecords.stillWriting(r.getValue())) {
          Map<String, Set<String>> found = JobBookkeeping.byAttempt(store, r.getValue());
          found.values().forEach(doomed::addAll);
          foundInKept.put(r.getKey(), found);
        } else {
          doomed.addAll(JobBookkeeping.everything(store, r.getValue()));
        }
      }
      try {
        SuccessData s = SuccessData.CODEC.load(store, location.successKey());
        if (jobId.equals(s.getJobId())) {
          doomed.add(location.successKey());
        }
      } catch (FileNotFoundException e) {
        // none
      } catch (IOException e) {
        LOG.warn("{}: not read ({}); left in place", store.pathOf(location.successKey()), e.toString());
      }
    } else {
      LOG.info("Job {} had committed (marker {} present): keeping its files, removing its bookkeeping", jobId,
          store.pathOf(location.jobMarkerKey(jobId)));
    }
    Leftovers.delete(store, doomed, "job " + jobId);
    Set<String> bookkeeping = new TreeSet<>(records.keySet());
    bookkeeping.addAll(Listings.keys(store, location.jobPrefix(jobId)));
    bookkeeping.add(location.jobMarkerKey(jobId));
    bookkeeping.remove(location.jobAbortedKey(jobId)); // kept: it must outlive every attempt of the job
    if (fence) {
      Set<String> kept = new TreeSet<>();
      bookkeeping.removeAll(foundInKept.keySet());
      for (Map.Entry<String, Map<String, Set<String>>> k : foundInKept.entrySet()) {
        if (KeptTaskRecords.keepAccounted(store, k.getKey(), k.getValue(), options.casAttempts())) {
          kept.add(k.getKey());
        }
      }
      if (!kept.isEmpty()) {
        LOG.info("Job {}: {} task record(s) kept, naming attempts that were still writing ({}): each such attempt"
            + " deletes its files and its record when it ends (it finds the job-abort marker); if one died instead,"
            + " `objectcommit direct-cleanup {} --job {}` deletes what it left", jobId, kept.size(),
            kept.size() <= 10 ? kept : kept.size() + " records", location, jobId);
      }
    }
    store.deleteBatch(bookkeeping);
    return doomed.size();
  }

  /**
   * Job ids with bookkeeping under the destination (uncommitted, or whose commit did not finish); a job of which
   * only the job-abort marker is left (an aborted job, cleaned up) is not one.
   */
  public List<String> pendingJobs(ObjectStore store) throws IOException {
    Set<String> ids = new TreeSet<>();
    String root = location.bookkeepingRoot();
    for (String k : Listings.keys(store, root)) {
      String rest = k.substring(root.length());
      int slash = rest.indexOf('/');
      if (slash > 0 && !k.startsWith(location.probePrefix())) {
        String id = rest.substring(0, slash);
        if (!k.equals(location.jobAbortedKey(id))) {
          ids.add(id);
        }
      }
    }
    return new ArrayList<>(ids);
  }

  /** Opens the destination's store (the cleanup command). */
  public ObjectStore openStore(Configuration conf) throws IOException {
    return ObjectStores.open(location.bucket(), conf, AuditContext.of(AuditContext.DIRECT));
  }

  /** Who sends the requests of a job's own work (setup, commit, abort): the direct committer, for job {@code id}. */
  private static AuditContext jobAudit(JobId id) {
    return AuditContext.of(AuditContext.DIRECT).withJob(id.id());
  }
}
