package io.objectcommit.it.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.SparkStandaloneCluster;
import io.objectcommit.testsupport.SparkSubmission;
import io.objectcommit.testsupport.TestTags;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * What the cluster scenarios share: the job file ({@code cluster_job.py}), the jars a user passes with
 * {@code --jars} (the bundle, hadoop-aws 3.3.4 and its SDK bundle, copied from the local Maven repository into
 * {@code target/cluster-jars} by this module's build: no network), and the settings of the user guide.
 */
final class ClusterJobs {

  /**
   * The tag of the cluster scenarios that run only in the full set ({@code bin/run-cluster-scenarios}); every
   * build runs the others (both committers' failed task and executor kills, speculation staging exact and direct
   * refused, the failed-job resource checks, the checkpoint driver kills with both state stores in one
   * application), which keeps CI within its time budget. Failsafe excludes the tags in
   * {@code objectcommit.it.excludedGroups}, which is this one by default.
   */
  static final String FULL_SET = TestTags.CLUSTER_FULL;

  static final ObjectMapper JSON = new ObjectMapper();

  /** How a job's output is committed: the user guide's settings for each committer. */
  enum Committer {
    DIRECT("spark.sql.parquet.output.committer.class=io.objectcommit.direct.DirectParquetOutputCommitter",
        Map.of("spark.sql.sources.commitProtocolClass",
            "org.apache.spark.sql.execution.datasources.SQLHadoopMapReduceCommitProtocol",
            "spark.sql.parquet.output.committer.class", "io.objectcommit.direct.DirectParquetOutputCommitter")),
    STAGING("spark.sql.sources.commitProtocolClass=io.objectcommit.staging.spark.StagingCommitProtocol",
        Map.of("spark.sql.sources.commitProtocolClass", "io.objectcommit.staging.spark.StagingCommitProtocol"));

    /** The {@code --conf} setting of the user guide. */
    final String setting;
    /**
     * The same choice as session settings ({@code spark.conf.set}) for one job of an application submitted with
     * the other committer's setting: both keys are SQL settings read when a write is planned.
     */
    final Map<String, String> sessionConf;

    Committer(String setting, Map<String, String> sessionConf) {
      this.setting = setting;
      this.sessionConf = sessionConf;
    }
  }

  private ClusterJobs() {
  }

  /** The cluster scenarios' files: one directory per test JVM (Failsafe runs several at once). */
  static Path workDir() {
    return Path.of(System.getProperty("basedir", "."), "target", "cluster",
        "jvm-" + ProcessHandle.current().pid());
  }

  /** The application, extracted from the test resources. */
  static Path app() throws IOException {
    Path target = Files.createDirectories(workDir()).resolve("cluster_job.py");
    try (InputStream in = ClusterJobs.class.getResourceAsStream("cluster_job.py")) {
      Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
    }
    return target;
  }

  /** The jars for {@code --jars}: the bundle, hadoop-aws, the AWS SDK bundle. */
  static List<Path> jars() throws IOException {
    Path dir = Path.of(System.getProperty("basedir", "."), "target", "cluster-jars");
    List<Path> jars;
    try (Stream<Path> s = Files.list(dir)) {
      jars = s.filter(p -> p.toString().endsWith(".jar")).sorted().collect(Collectors.toList());
    }
    for (String expected : List.of("objectcommit-spark-runtime-", "hadoop-aws-", "aws-java-sdk-bundle-")) {
      if (jars.stream().noneMatch(j -> j.getFileName().toString().startsWith(expected))) {
        throw new IOException(dir + " lacks " + expected + "*.jar: build it-tests with Maven (its build copies"
            + " them from the local repository)");
      }
    }
    return jars;
  }

  /**
   * spark-submit options as a user of the user guide writes them: {@code --jars}, the S3 settings as
   * {@code spark.hadoop.fs.s3a.*} (keys in {@code fs.s3a.access.key}/{@code secret.key}, Hadoop's default credential
   * provider list), no instance-metadata probe on executors, plus {@code settings}.
   */
  static List<String> options(S3TestBucket bucket, List<String> settings) throws IOException {
    List<String> o = new ArrayList<>();
    o.add("--jars");
    o.add(jars().stream().map(Path::toString).collect(Collectors.joining(",")));
    for (Map.Entry<String, String> e : bucket.s3aOptions().entrySet()) {
      o.add("--conf");
      o.add("spark.hadoop." + e.getKey() + "=" + e.getValue());
    }
    o.add("--conf");
    o.add("spark.executorEnv.AWS_EC2_METADATA_DISABLED=true");
    for (String s : settings) {
      o.add("--conf");
      o.add(s);
    }
    return o;
  }

  /** The job's result file (see cluster_job.py), if it wrote one. */
  static Optional<JsonNode> result(Path markers) throws IOException {
    Path f = markers.resolve("result.json");
    return Files.exists(f) ? Optional.of(JSON.readTree(f.toFile())) : Optional.empty();
  }

  /** The attempt markers (see cluster_job.py): partition, attempt, task, executor_pid. */
  static List<JsonNode> attempts(Path markers) throws IOException {
    List<JsonNode> out = new ArrayList<>();
    try (Stream<Path> s = Files.list(markers)) {
      for (Path p : s.filter(f -> f.getFileName().toString().matches("attempt-.*\\.json")).sorted()
          .collect(Collectors.toList())) {
        out.add(JSON.readTree(p.toFile()));
      }
    }
    return out;
  }

  /** Waits for the job and describes its end for assertion messages. */
  static String describe(SparkSubmission job, int code) {
    return "spark-submit exit " + code + ", driver log " + job.log() + ":\n" + job.logTail(40);
  }

  /** Starts the cluster, or explains why a test class cannot run. */
  static SparkStandaloneCluster startCluster() throws IOException {
    return SparkStandaloneCluster.start(workDir());
  }
}
