package io.objectcommit.it.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import io.objectcommit.it.cluster.ClusterJobs.Committer;
import io.objectcommit.testsupport.S3TestBucket;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One write scenario of a {@link ScenarioApplication}: the job's shape (the entry of {@code cluster_job.py}'s
 * plan), where its markers and output go, whether the test SIGKILLs an executor during it, and how its end is
 * checked.
 */
final class WriteScenario {

  /** Checks a scenario once its job ended; returns what the report line says (rows, files, result). */
  @FunctionalInterface
  interface Check {
    String check(WriteScenario scenario, JsonNode result) throws Exception;
  }

  final String scenario;
  final Committer committer;
  final S3TestBucket bucket;
  final String name;
  final String out;
  final Path markers;
  final Map<String, Object> entry = new LinkedHashMap<>();
  long rows;
  int killPartition = -1;
  int killAfterFiles;
  boolean expectFailure;
  Check check;

  /**
   * @param appCommitter the committer the application was submitted with; when {@code committer} differs, the
   *     job switches to it with session settings ({@link Committer#sessionConf})
   */
  WriteScenario(String scenario, Committer committer, Committer appCommitter, S3TestBucket bucket,
      Path scenariosDir) throws IOException {
    this.scenario = scenario;
    this.committer = committer;
    this.bucket = bucket;
    this.name = scenario + "-" + committer.name().toLowerCase();
    this.out = "tables/" + name;
    this.markers = Files.createDirectories(scenariosDir.resolve(name + "-" + System.nanoTime()).resolve("markers"));
    entry.put("name", name);
    entry.put("out", bucket.s3a(out));
    entry.put("markers", markers.toString());
    if (committer != appCommitter) {
      entry.put("sql_conf", committer.sessionConf);
    }
  }

  WriteScenario rows(long n) {
    rows = n;
    return param("rows", n);
  }

  WriteScenario partitions(int n) {
    return param("partitions", n);
  }

  /** A key of the plan entry (see cluster_job.py). */
  WriteScenario param(String key, Object value) {
    entry.put(key, value);
    return this;
  }

  /** SIGKILL the executor running task {@code partition}'s first attempt once {@code files} of its files exist. */
  WriteScenario killExecutorOf(int partition, int files) {
    killPartition = partition;
    killAfterFiles = files;
    return this;
  }

  /** The job is expected to fail (the application then exits with 3). */
  WriteScenario expectFailure() {
    expectFailure = true;
    return this;
  }

  WriteScenario check(Check c) {
    check = c;
    return this;
  }

  List<JsonNode> attempts() throws IOException {
    return ClusterJobs.attempts(markers);
  }

  List<Integer> attemptNumbers(int partition) throws IOException {
    return attempts().stream().filter(a -> a.get("partition").asInt() == partition)
        .map(a -> a.get("attempt").asInt()).collect(Collectors.toList());
  }

  /** The output checked by {@link PlainOutputCheck}; returns the report's "rows=.. files=.. result=exact". */
  String verifyExact(boolean partitioned) throws IOException {
    int files = PlainOutputCheck.verify(bucket, out, rows, partitioned, markers.getParent().resolve("read"));
    if (files == 0) {
      throw new AssertionError(name + ": no data file");
    }
    return "rows=" + rows + " files=" + files + " result=exact";
  }
}
