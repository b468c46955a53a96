package io.objectcommit.it.stores;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.checkpoint.CheckpointMaintenance;
import io.objectcommit.it.SmokeJob;
import io.objectcommit.it.SparkSessions;
import io.objectcommit.it.direct.DirectCommitters;
import io.objectcommit.it.faults.CheckpointContender;
import io.objectcommit.it.faults.CommitterContender;
import io.objectcommit.it.faults.CountingQuery;
import io.objectcommit.it.faults.ObjectCommitCheckpoints;
import io.objectcommit.it.faults.ProxiedBucket;
import io.objectcommit.it.faults.StagingCommitters;
import io.objectcommit.it.faults.StreamInput;
import io.objectcommit.testsupport.PlainS3;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.TestTags;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every component on a bucket with versioning on: a stateful streaming query checkpointing to {@code ckpt://}
 * (restarted once), a direct-committer write and a staging-committer write give the same exact results as on an
 * unversioned bucket, and each leaves an exact number of noncurrent versions and delete markers, counted with
 * ListObjectVersions (what the lifecycle rule of docs/user-guide.md, "Versioned buckets", expires).
 */
@S3IntegrationTest
@Tag(TestTags.COMPONENT)
class VersionedBucketIT {

  private static final Logger LOG = LoggerFactory.getLogger(VersionedBucketIT.class);
  private static final int BATCHES_PER_RUN = 3;
  private static final long ROWS = 20_000;
  private static final int TASKS = 4;

  /** The versions under the bucket's test prefix at one moment: noncurrent ones, delete markers, current ones. */
  record Versions(Map<String, PlainS3.Version> noncurrent, Map<String, PlainS3.Version> markers, int current) {
    static Versions of(S3TestBucket bucket) {
      Map<String, PlainS3.Version> old = new TreeMap<>();
      Map<String, PlainS3.Version> markers = new TreeMap<>();
      int current = 0;
      for (PlainS3.Version v : bucket.plain().listVersions(bucket.name(), bucket.prefix())) {
        String id = v.key().substring(bucket.prefix().length()) + " " + v.versionId();
        if (v.deleteMarker()) {
          markers.put(id, v);
        } else if (v.latest()) {
          current++;
        } else {
          old.put(id, v);
        }
      }
      return new Versions(old, markers, current);
    }

    /** What appeared since {@code before}. */
    Leftovers since(Versions before) {
      List<String> newOld = noncurrent.keySet().stream().filter(id -> !before.noncurrent.containsKey(id))
          .collect(Collectors.toList());
      long bytes = newOld.stream().mapToLong(id -> noncurrent.get(id).size()).sum();
      List<String> newMarkers = markers.keySet().stream().filter(id -> !before.markers.containsKey(id))
          .collect(Collectors.toList());
      return new Leftovers(shapes(newOld), bytes, shapes(newMarkers), current - before.current);
    }

    private static List<String> shapes(List<String> ids) {
      return ids.stream().map(Versions::shape).sorted().collect(Collectors.toList());
    }

    /** The key without its version id, UUIDs, job ids and data-object suffixes replaced by placeholders. */
    static String shape(String id) {
      return id.substring(0, id.lastIndexOf(' '))
          .replaceAll("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "UUID")
          // a committer's job id is Spark's write-job UUID, or Hadoop's job id where Spark gives none (Spark 4.2)
          .replaceAll("job_[0-9]+_[0-9]{4}", "UUID")
          .replaceAll("~[0-9a-f]{16}$", "~HEX");
    }
  }

  /**
   * What a piece of work left: the keys of its new noncurrent versions and their bytes, its new delete markers, and
   * how many more current objects there are.
   */
  record Leftovers(List<String> noncurrent, long noncurrentBytes, List<String> deleteMarkers, int newCurrent) {
    @Override
    public String toString() {
      return noncurrent.size() + " noncurrent versions (" + noncurrentBytes + " bytes), " + deleteMarkers.size()
          + " delete markers, " + newCurrent + " more current objects; noncurrent " + noncurrent + ", markers "
          + deleteMarkers;
    }
  }

  private static S3TestBucket versioned(S3TestBucket bucket) {
    bucket.enableVersioning();
    assertEquals("Enabled", bucket.plain().versioningStatus(bucket.name()));
    return bucket;
  }

  @Test
  void aRestartedStatefulQueryIsExactAndLeavesSevenNoncurrentManifestsPerMicroBatch(S3TestBucket unversioned,
      @TempDir Path input) throws Exception {
    S3TestBucket bucket = versioned(unversioned);
    CheckpointContender ckpt = ObjectCommitCheckpoints.s3();
    StreamInput in = new StreamInput(input);
    try (ProxiedBucket proxied = new ProxiedBucket(bucket);
        SparkSession spark = SparkSessions.local("versioned-bucket", "local[2]", proxied.s3aOptions(),
            ckpt.sparkConf())) {
      proxied.runStoreChecks(); // the guarantee check's objects (written and deleted) are not the query's
      String checkpoint = ckpt.location(proxied, "versioned/checkpoint");
      List<Leftovers> perBatch = new ArrayList<>();
      List<Long> allBatches = new ArrayList<>();
      int file = 0;
      for (int run = 0; run < 2; run++) {
        CountingQuery.clear();
        Versions before = Versions.of(bucket);
        StreamingQuery q = CountingQuery.start(spark, input, checkpoint);
        try {
          for (int b = 0; b < BATCHES_PER_RUN; b++, file++) {
            in.addFile(file);
            q.processAllAvailable();
            Versions now = Versions.of(bucket);
            perBatch.add(now.since(before));
            before = now;
          }
        } finally {
          q.stop();
        }
        assertTrue(q.exception().isEmpty(), "run " + run + ": " + q.exception());
        List<Long> batches = CountingQuery.batches();
        List<Long> expectedBatches = new ArrayList<>();
        for (long id = (long) run * BATCHES_PER_RUN; id < (run + 1L) * BATCHES_PER_RUN; id++) {
          expectedBatches.add(id);
        }
        assertEquals(expectedBatches, batches, "run " + run + " processes exactly its new batches");
        assertTrue(allBatches.stream().noneMatch(batches::contains), "no batch twice: " + allBatches + batches);
        allBatches.addAll(batches);
        assertEquals(StreamInput.expectedCounts(file), CountingQuery.lastCounts(), "exact state after run " + run);
        Leftovers afterStop = Versions.of(bucket).since(before);
        assertEquals(new Leftovers(List.of(), 0, List.of(), 0), afterStop, "stopping the query leaves nothing");
      }
      for (int b = 0; b < perBatch.size(); b++) {
        LOG.info("micro-batch {}: {}", b, perBatch.get(b));
      }
      boolean spark35 = spark.version().startsWith("3.5.");
      for (int b = 0; b < perBatch.size(); b++) {
        Leftovers l = perBatch.get(b);
        assertEquals(List.of(), l.deleteMarkers(), "micro-batch " + b + " deletes nothing: " + l);
        assertTrue(l.noncurrent().stream().allMatch(k -> k.startsWith(".ckpt/dirs/") && k.endsWith(".json")),
            "only manifests are replaced: " + l);
        // the query's files are small: each is kept in its directory's manifest (checkpoint format version 2), so
        // after micro-batch 0 (new directories' manifests, and the root's) no batch adds an object
        if (b > 0) {
          assertEquals(0, l.newCurrent(), "micro-batch " + b + " adds no object: " + l);
        }
        if (spark35) {
          // every file written and every new directory replaced its parent's manifest once: 7 files a batch (offset,
          // source and commit log entries, 4 state deltas); batch 0 also makes 13 directories (their manifests and
          // the root's are its new objects) and writes the metadata and state schema files. Each start of the query
          // takes ownership of the checkpoint (docs/checkpoint-format.md, "Fencing"): the first raises the epoch in
          // the checkpoint directory's manifest (1 more version); the restart's also stamps the 11 directories under
          // it (12 more: the manifests an older owner may hold)
          int takeover = b == 0 ? 1 : b == BATCHES_PER_RUN ? 12 : 0;
          assertEquals((b == 0 ? 22 : 7) + takeover, l.noncurrent().size(), "micro-batch " + b + ": " + l);
          assertEquals(b == 0 ? 14 : 0, l.newCurrent(), "micro-batch " + b + ": " + l);
        }
      }
      gcReportsWhatTheBucketKeeps(bucket, proxied, ckpt, checkpoint);
    }
  }

  /**
   * {@code objectcommit checkpoint gc}'s maintenance counts the namespace's noncurrent versions and delete markers
   * as ListObjectVersions shows them (the namespace's keys only: not the store check's objects beside them), and
   * deletes none of them.
   */
  private static void gcReportsWhatTheBucketKeeps(S3TestBucket bucket, ProxiedBucket proxied,
      CheckpointContender ckpt, String checkpoint) throws Exception {
    Configuration conf = new Configuration();
    proxied.s3aOptions().forEach(conf::set);
    ckpt.sparkConf().forEach((k, v) -> conf.set(k.replaceFirst("^spark\\.hadoop\\.", ""), v));
    List<PlainS3.Version> before = bucket.plain().listVersions(bucket.name(), "");
    List<PlainS3.Version> ours = before.stream()
        .filter(v -> v.key().startsWith(".ckpt/") || v.key().matches(".*~[0-9a-f]{16}$"))
        .collect(Collectors.toList());
    long noncurrent = ours.stream().filter(v -> !v.latest() && !v.deleteMarker()).count();
    long bytes = ours.stream().filter(v -> !v.latest() && !v.deleteMarker()).mapToLong(PlainS3.Version::size).sum();
    long markers = ours.stream().filter(PlainS3.Version::deleteMarker).count();
    ByteArrayOutputStream report = new ByteArrayOutputStream();
    try (CheckpointMaintenance m = CheckpointMaintenance.open(new org.apache.hadoop.fs.Path(checkpoint), conf)) {
      m.gc(Duration.ofHours(1), false, new PrintStream(report, true, StandardCharsets.UTF_8));
    }
    String out = report.toString(StandardCharsets.UTF_8);
    LOG.info("checkpoint gc after the query:\n{}", out);
    assertTrue(out.contains("deleted 0 objects\n" + noncurrent + " noncurrent versions (" + bytes + " bytes) and "
        + markers + " delete markers under s3://" + bucket.name() + "/\n"), out);
    assertTrue(out.contains("gc does not delete noncurrent versions or delete markers"), out);
    assertEquals(before, bucket.plain().listVersions(bucket.name(), ""), "gc deleted no version");
  }

  @Test
  void aDirectCommitterWriteIsExactAndLeavesItsBookkeepingAsDeleteMarkers(S3TestBucket unversioned)
      throws Exception {
    S3TestBucket bucket = versioned(unversioned);
    List<Leftovers> jobs = writeTwice(bucket, DirectCommitters.parquet(), "direct");
    LOG.info("direct committer, first job: {}", jobs.get(0));
    LOG.info("direct committer, second job (append): {}", jobs.get(1));
    // each task's record is written twice (declaring the task's file group while it writes, then at task commit):
    // its first version; at job commit the bookkeeping (the commit marker job.json and the task records) is
    // deleted: a marker and a noncurrent version each
    String bookkeeping = "table/_objectcommit_direct/UUID/";
    List<String> markers = new ArrayList<>(List.of(bookkeeping + "job.json"));
    for (int t = 0; t < TASKS; t++) {
      markers.add(bookkeeping + String.format("tasks/m-%06d.json", t));
    }
    List<String> noncurrent = new ArrayList<>(markers);
    noncurrent.addAll(markers.subList(1, markers.size()));
    noncurrent.sort(null);
    assertEquals(noncurrent, jobs.get(0).noncurrent(), jobs.get(0).toString());
    assertEquals(markers, jobs.get(0).deleteMarkers(), jobs.get(0).toString());
    noncurrent.add("table/_SUCCESS");
    noncurrent.sort(null);
    assertEquals(noncurrent, jobs.get(1).noncurrent(), "and the first job's _SUCCESS: " + jobs.get(1));
    assertEquals(markers, jobs.get(1).deleteMarkers(), jobs.get(1).toString());
  }

  @Test
  void aStagingCommitterWriteIsExactAndLeavesItsTaskRecordsAsDeleteMarkers(S3TestBucket unversioned)
      throws Exception {
    S3TestBucket bucket = versioned(unversioned);
    List<Leftovers> jobs = writeTwice(bucket, StagingCommitters.parquetBinding(), "staging");
    LOG.info("staging committer, first job: {}", jobs.get(0));
    LOG.info("staging committer, second job (append): {}", jobs.get(1));
    // each task's record, deleted at job commit: a marker and a noncurrent version each
    List<String> records = new ArrayList<>();
    for (int t = 0; t < TASKS; t++) {
      records.add(String.format("table/.objectcommit-staging/UUID/task-%06d.json", t));
    }
    assertEquals(records, jobs.get(0).noncurrent(), jobs.get(0).toString());
    assertEquals(records, jobs.get(0).deleteMarkers(), jobs.get(0).toString());
    List<String> second = new ArrayList<>(records);
    second.add("table/_SUCCESS");
    second.sort(null);
    assertEquals(second, jobs.get(1).noncurrent(), "and the first job's _SUCCESS: " + jobs.get(1));
    assertEquals(records, jobs.get(1).deleteMarkers(), jobs.get(1).toString());
  }

  /** Two appending jobs of {@value #ROWS} rows in {@value #TASKS} files each: exact rows; what each job left. */
  private static List<Leftovers> writeTwice(S3TestBucket bucket, CommitterContender committer, String name)
      throws Exception {
    try (ProxiedBucket proxied = new ProxiedBucket(bucket);
        SparkSession spark = SparkSessions.local("versioned-" + name, "local[2]", proxied.s3aOptions(),
            committer.sparkConf())) {
      proxied.runStoreChecks(); // the guarantee check's objects (written and deleted) are not the jobs'
      String table = bucket.s3a("table");
      List<Leftovers> jobs = new ArrayList<>();
      for (int job = 1; job <= 2; job++) {
        Versions before = Versions.of(bucket);
        SmokeJob.dataset(spark, ROWS).repartition(TASKS).write().mode(SaveMode.Append).parquet(table);
        jobs.add(Versions.of(bucket).since(before));
        List<String> keys = bucket.listKeys("table/");
        assertEquals(job * TASKS + 1, keys.size(), job + " jobs' files and _SUCCESS: " + keys);
        assertTrue(keys.contains(bucket.key("table/_SUCCESS")), keys.toString());
      }
      SmokeJob.Result once = SmokeJob.expected(ROWS);
      assertEquals(new SmokeJob.Result(2 * ROWS, 2 * once.idSum, ROWS, 2 * once.bucketSum),
          SmokeJob.read(spark, table), "every row twice");
      assertEquals(TASKS + 1, jobs.get(0).newCurrent(), "the first job adds its files and _SUCCESS: " + jobs);
      assertEquals(TASKS, jobs.get(1).newCurrent(), "the second adds its files, _SUCCESS is replaced: " + jobs);
      return jobs;
    }
  }
}
