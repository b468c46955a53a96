package io.objectcommit.testsupport;

/**
 * The JUnit 5 tags that say which tests run where: each names a kind of test, and the poms choose by tag (Surefire's
 * and Failsafe's {@code groups} and {@code excludedGroups}; docs/development.md, "Which tests run on which Spark
 * line"). The tests of our modules are compiled once, against Spark 3.5, and each Spark line's modules run them from
 * their test jars on that line's class path, leaving out the tags in the line's {@code spark.line.excludedGroups}.
 */
public final class TestTags {

  /** A Spark standalone cluster started from pip-installed PySpark 3.5.8 with the Spark 3.5 bundle: Spark 3.5 only. */
  public static final String CLUSTER = "cluster";

  /**
   * The longer cluster scenarios, left out of {@code mvn verify} on every line by property
   * {@code objectcommit.it.excludedGroups} ({@code bin/run-cluster-scenarios} runs them).
   */
  public static final String CLUSTER_FULL = "cluster-full";

  /** The NFS scenarios, on NFS-like FUSE mounts ({@link NfsLikeMount}): Spark 3.5 only. */
  public static final String NFS = "nfs";

  /**
   * The {@code objectcommit} command's tests: they run {@code bin/objectcommit}, whose class path search and
   * messages name the Spark 3.5 line's jars, or check its help against the user guide: Spark 3.5 only.
   */
  public static final String COMMAND = "command";

  /**
   * Our subclasses of Hadoop's FileSystem contract suites, which are JUnit 4 in Hadoop 3.3 and 3.4 and JUnit 5 from
   * Hadoop 3.5 (Spark 4.2, profile {@code spark-4.2}), where they are left out. The tag is the name of the JUnit 4
   * category {@link HadoopContractSuite}, which the JUnit Vintage engine reports as the tag: a contract class carries
   * both {@code @Category(HadoopContractSuite.class)} and {@code @Tag(TestTags.HADOOP_CONTRACT)}, so that one tag
   * leaves it out under either engine.
   */
  public static final String HADOOP_CONTRACT = "io.objectcommit.testsupport.HadoopContractSuite";

  /** The Spark ITs that {@code mvn verify} runs on every Spark 4 line (the default of {@code objectcommit.its}). */
  public static final String SMOKE = "smoke";

  /**
   * A Spark IT of one of our components (checkpoints, committers, settings, messages), as opposed to the stock
   * components' reproductions, the request baseline, the benchmark harness and the seeded fault runs: the set CI
   * runs on Spark 4.0 and on PySpark's Spark 4.3.
   */
  public static final String COMPONENT = "component";

  /**
   * A Spark IT that needs S3A on the AWS SDK v2 (hadoop-aws 3.4+: the Spark 4 lines), for a store that refuses SDK
   * v1's requests (moto's IAM mode refuses its signatures); it skips itself on the Spark 3.5 line. The Spark 4.1
   * line's {@code mvn verify} runs these beside the smoke ITs.
   */
  public static final String AWS_SDK_V2 = "aws-sdk-v2";

  /**
   * A Spark IT whose exact request counts include the state checksum files that Spark 4.1 writes with its defaults
   * (Spark 4.2 writes them for checkpoint format v2 only). The Spark 4.1 line's {@code mvn verify} runs these beside
   * the smoke ITs, so that those counts are checked on the one line that writes them.
   */
  public static final String CHECKSUM_FILES = "checksum-files";

  /**
   * A Spark IT that runs Delta Lake ({@code delta-spark} of the line: 3.x on Spark 3.5, 4.x on the Spark 4 lines, a
   * test dependency of the it-tests modules): run on Spark 3.5 and on the newest Spark 4 line (spark-4.1), left out
   * on the Spark 4.0 line.
   */
  public static final String DELTA = "delta";

  /**
   * The CI-sized soak ({@code SoakIT}): run by {@code mvn verify} on Spark 3.5 only, beside the other ITs (the Spark
   * ITs reset Spark's JVM-wide state store registry after each class, so it needs no test JVM of its own).
   */
  public static final String SOAK = "soak";

  /**
   * An IT that runs for many minutes to measure (the Delta log store benchmark): left out of
   * {@code mvn verify} on every line by property {@code objectcommit.it.excludedGroups}, like {@link #CLUSTER_FULL};
   * run one with {@code -Dit.test=SomeIT -Dobjectcommit.it.excludedGroups=none}.
   */
  public static final String LONG = "long";

  private TestTags() {
  }
}
