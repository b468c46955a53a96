package io.objectcommit.it.cluster;

import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.it.SparkSessions;
import io.objectcommit.it.cluster.ClusterJobs.Committer;
import io.objectcommit.store.StoreContext;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.TestTags;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.hadoop.fs.s3a.Constants;
import org.apache.spark.TaskContext;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.expressions.UserDefinedFunction;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bounded resources after failed jobs (in one driver JVM, {@code local[2,3]}: each task tried three times): five
 * jobs in a row whose task 0 fails in every attempt after some files were written. After each: the driver's
 * thread count does not grow after the second failure (Spark starts pools lazily in the first ones; a leak grows
 * with every job), no store of ours is left open (every {@code ObjectStore} lease released: none of our S3 clients,
 * hence none of our connections, outlives the job), the connections this JVM still holds to the store (Hadoop
 * S3A's pool, which Spark's own file system uses) stay within that pool's bound, the committers' local buffer
 * directories hold no file, and the
 * store holds no pending multipart upload. Finally the session's stop leaves no thread of ours.
 */
@S3IntegrationTest
@Tag(TestTags.CLUSTER)
class FailedJobResourcesIT {

  private static final Logger LOG = LoggerFactory.getLogger(FailedJobResourcesIT.class);
  private static final int FAILED_JOBS = 5;
  /** Spark starts some of its pools lazily during the first failed jobs: the baseline is taken after this one. */
  private static final int WARM_UP_FAILED_JOBS = 2;
  /** Spark's own pools (task launch, shuffle, cleaners) come and go within this margin. */
  private static final int THREAD_MARGIN = 4;

  /** Fails every attempt of task 0 after 60 rows (each attempt has written files of 20 rows by then). */
  static final class FailTaskZero implements UDF1<Long, Long> {
    private static final long serialVersionUID = 1L;
    private static final ThreadLocal<long[]> ROWS = ThreadLocal.withInitial(() -> new long[] {-1, 0});

    @Override
    public Long call(Long id) {
      TaskContext t = TaskContext.get();
      if (t != null && t.partitionId() == 0) {
        long[] r = ROWS.get();
        if (r[0] != t.taskAttemptId()) {
          r[0] = t.taskAttemptId();
          r[1] = 0;
        }
        if (++r[1] > 60) {
          throw new IllegalStateException("injected failure of task 0, attempt " + t.attemptNumber());
        }
      }
      return id;
    }
  }

  @Test
  void failedJobsLeaveNoThreadsConnectionsOrLocalFilesDirect(S3TestBucket bucket) throws Exception {
    failedJobsLeaveNoThreadsConnectionsOrLocalFiles(Committer.DIRECT, bucket);
  }

  /**
   * A task that commits while Spark aborts the job (task 1 still committing when task 0's last attempt fails) must
   * leave no upload pending: job abort writes a job-abort marker first and task commit reads it after saving its
   * record (committer-staging JobAbortStage), so no upload stays pending in any interleaving (issue 17).
   *
   * <p>Our resources are checked exactly (store leases: every one of our clients is shut down after a failed job);
   * the JVM's connections to the store are bounded by S3A's pool size only, since S3A's idle sockets vary with how
   * many requests of Spark's own file system ran at once (docs/reliability.md, "A task commit racing a job abort").
   */
  @Test
  void failedJobsLeaveNoThreadsConnectionsOrLocalFilesStaging(S3TestBucket bucket) throws Exception {
    failedJobsLeaveNoThreadsConnectionsOrLocalFiles(Committer.STAGING, bucket);
  }

  private void failedJobsLeaveNoThreadsConnectionsOrLocalFiles(Committer committer, S3TestBucket bucket)
      throws Exception {
    Path work = Files.createDirectories(ClusterJobs.workDir().resolve("resources-" + committer.name().toLowerCase()
        + "-" + System.currentTimeMillis()));
    Path stagingBuffer = work.resolve("staging-buffer");
    Path directBuffer = Files.createDirectories(work.resolve("direct-buffer"));
    String[] kv = committer.setting.split("=", 2);
    int port = bucket.endpoint().uri().getPort();
    Set<String> before = threadNames();
    SparkSession spark = SparkSessions.local("failed-job-resources", "local[2,3]", bucket.s3aOptions(), Map.of(
        kv[0], kv[1],
        "spark.hadoop.fs.objectcommit.staging.buffer.dirs", stagingBuffer.toString(),
        "spark.hadoop.fs.objectcommit.direct.buffer.dir", directBuffer.toString()));
    List<String> history = new ArrayList<>();
    int leasesBefore = StoreContext.jvm().leasesHeld();
    int firstThreads = -1;
    int poolBound = spark.sparkContext().hadoopConfiguration().getInt(Constants.MAXIMUM_CONNECTIONS,
        Constants.DEFAULT_MAXIMUM_CONNECTIONS);
    Set<String> baselineNames = Set.of();
    try {
      UserDefinedFunction fail = functions.udf(new FailTaskZero(), DataTypes.LongType).asNondeterministic();
      spark.range(0, 400, 1, 2).write().parquet(bucket.s3a("tables/warm-up"));
      for (int i = 1; i <= FAILED_JOBS; i++) {
        String out = "tables/failed-" + i;
        assertThrows(Exception.class, () -> spark.range(0, 400, 1, 2).select(fail.apply(col("id")).alias("id"))
            .write().option("maxRecordsPerFile", 20).parquet(bucket.s3a(out)));
        Thread.sleep(1000); // let the killed attempts' threads finish
        int threads = countedThreads();
        long connections = StoreConnections.establishedTo(port);
        int leases = StoreContext.jvm().leasesHeld();
        history.add("job " + i + ": " + threads + " threads, " + connections + " connections, " + leases
            + " store leases");
        assertEquals(List.of(), CommitterClusterIT.leftovers(stagingBuffer), "staging buffer after failed job " + i);
        assertEquals(List.of(), CommitterClusterIT.leftovers(directBuffer), "direct buffer after failed job " + i);
        PlainOutputCheck.assertNoPendingUploads(bucket, out);
        // Every ObjectStore the committers opened for the job and its attempts is closed again: one left open
        // per retry or abort would hold its client, and the client's connections, for the life of the JVM.
        assertEquals(leasesBefore, leases, "store leases held after failed job " + i + ": " + history);
        if (i == WARM_UP_FAILED_JOBS) {
          firstThreads = threads;
          baselineNames = threadNames();
        } else if (i > WARM_UP_FAILED_JOBS) {
          Set<String> added = threadNames();
          added.removeAll(baselineNames);
          assertTrue(threads <= firstThreads + THREAD_MARGIN, "driver threads grow with failed jobs: " + history
              + "; new since job " + WARM_UP_FAILED_JOBS + ": " + added);
          assertTrue(connections <= poolBound, "connections to the store beyond S3A's pool (" + Constants.MAXIMUM_CONNECTIONS
              + "=" + poolBound + "): " + history);
        }
      }
    } finally {
      spark.stop();
    }
    Thread.sleep(1000);
    List<String> ours = new ArrayList<>();
    for (String t : threadNames()) {
      if (!before.contains(t) && t.toLowerCase().contains("objectcommit")) {
        ours.add(t);
      }
    }
    assertEquals(List.of(), ours, "objectcommit threads left after the session stopped");
    LOG.info("{}: {} failed jobs: {}", committer, FAILED_JOBS, history);
  }

  /**
   * Spark's elastic pools, which it sizes by its own settings and the work in flight, not by anything of ours: the
   * block manager's removal and ask pools (seen growing from 0 to 25 threads in one failed job when the broadcasts
   * of the earlier jobs were cleaned) and the task launch workers of attempts still ending.
   */
  private static final List<String> SPARK_ELASTIC_POOLS = List.of("block-manager-", "Executor task launch worker");

  /** This JVM's threads but Spark's elastic pools: what a leak of ours (or a growing client pool) would raise. */
  private static int countedThreads() {
    return (int) threadNames().stream().filter(n -> SPARK_ELASTIC_POOLS.stream().noneMatch(n::startsWith)).count();
  }

  private static Set<String> threadNames() {
    Set<String> names = new HashSet<>();
    Thread.getAllStackTraces().keySet().forEach(t -> names.add(t.getName()));
    return names;
  }

  /** Counts this JVM's established TCP connections to a port, from /proc (Linux). */
  static final class StoreConnections {
    private StoreConnections() {
    }

    static long establishedTo(int port) throws IOException {
      Set<String> inodes = new HashSet<>();
      try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
        fds.forEach(fd -> {
          try {
            String link = Files.readSymbolicLink(fd).toString();
            if (link.startsWith("socket:[")) {
              inodes.add(link.substring(8, link.length() - 1));
            }
          } catch (IOException closedMeanwhile) {
            // an fd closed while listing: not a connection any more
          }
        });
      }
      long n = 0;
      for (String table : List.of("/proc/self/net/tcp", "/proc/self/net/tcp6")) {
        Path p = Path.of(table);
        if (!Files.exists(p)) {
          continue;
        }
        List<String> lines = Files.readAllLines(p);
        for (String line : lines.subList(1, lines.size())) {
          String[] f = line.trim().split("\\s+");
          String remote = f[2];
          int remotePort = Integer.parseInt(remote.substring(remote.indexOf(':') + 1), 16);
          if (f[3].equals("01") && remotePort == port && inodes.contains(f[9])) {
            n++;
          }
        }
      }
      return n;
    }
  }
}
