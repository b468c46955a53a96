package io.objectcommit.store;

import io.objectcommit.store.guarantee.StoreGuaranteeException;

/**
 * Every configuration key the store module reads, each beside its default.
 *
 * <p>The connection keys are S3A's own ({@code fs.s3a.*}), so that a job already configured for {@code s3a://}
 * reaches its bucket through objectcommit with no other setting. Each of them can be overridden for one bucket
 * with {@code fs.s3a.bucket.<bucket>.<rest of the key>}, exactly as S3A does. Keys that only objectcommit has
 * start with {@value #PREFIX} and can be overridden per bucket the same way,
 * {@code fs.objectcommit.bucket.<bucket>.<rest of the key>}.
 *
 * <p>Durations accept a number of milliseconds or a number with a unit ({@code 500ms}, {@code 5s}, {@code 2m});
 * sizes accept bytes or a suffix ({@code 64M}, {@code 1G}).
 */
public final class StoreConstants {

  private StoreConstants() {
  }

  /** Prefix of S3A's keys, which the store module reads too: {@value}. */
  public static final String S3A_PREFIX = "fs.s3a.";

  /** Prefix of objectcommit's own keys: {@value}. */
  public static final String PREFIX = "fs.objectcommit.";

  /** Infix of per-bucket overrides: {@code fs.s3a.bucket.<bucket>.<key>}: {@value}. */
  public static final String BUCKET_INFIX = "bucket.";

  // ---------------------------------------------------------------------------------------------------------
  // Endpoint
  // ---------------------------------------------------------------------------------------------------------

  /** S3 endpoint, a host name or URL; empty means AWS S3 in {@link #ENDPOINT_REGION}: {@value}. */
  public static final String ENDPOINT = "fs.s3a.endpoint";
  public static final String ENDPOINT_DEFAULT = "";

  /** Signing region: {@value}. */
  public static final String ENDPOINT_REGION = "fs.s3a.endpoint.region";
  public static final String ENDPOINT_REGION_DEFAULT = "us-east-1";

  /** Path-style requests ({@code http://host/bucket/key}) instead of virtual-host style: {@value}. */
  public static final String PATH_STYLE_ACCESS = "fs.s3a.path.style.access";
  public static final boolean PATH_STYLE_ACCESS_DEFAULT = false;

  /** HTTPS when the endpoint names no scheme: {@value}. */
  public static final String SSL_ENABLED = "fs.s3a.connection.ssl.enabled";
  public static final boolean SSL_ENABLED_DEFAULT = true;

  // ---------------------------------------------------------------------------------------------------------
  // Credentials
  // ---------------------------------------------------------------------------------------------------------

  /** Access key id (also read through Hadoop credential providers): {@value}. */
  public static final String ACCESS_KEY = "fs.s3a.access.key";

  /** Secret key (also read through Hadoop credential providers; never logged): {@value}. */
  public static final String SECRET_KEY = "fs.s3a.secret.key";

  /** Session token of temporary credentials (never logged): {@value}. */
  public static final String SESSION_TOKEN = "fs.s3a.session.token";

  /**
   * Comma-separated credential provider classes, asked in order as S3A asks them: a provider with nothing to give
   * is skipped, the first that gives credentials wins. Unset or empty means S3A's built-in list of the binding's
   * Hadoop line ({@code CredentialProviders.Line}): {@value}.
   */
  public static final String CREDENTIALS_PROVIDER = "fs.s3a.aws.credentials.provider";

  /**
   * Hadoop 3.3.4's default list (core-default.xml), also what S3A uses when the key is empty: session keys from the
   * configuration, keys from the configuration, keys from the environment, container or EC2 instance credentials:
   * {@value}.
   */
  public static final String CREDENTIALS_PROVIDER_DEFAULT =
      "org.apache.hadoop.fs.s3a.TemporaryAWSCredentialsProvider,org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider,"
      + "com.amazonaws.auth.EnvironmentVariableCredentialsProvider,"
      + "org.apache.hadoop.fs.s3a.auth.IAMInstanceCredentialsProvider";

  /**
   * Hadoop 3.4.1's default list (its core-default.xml), for the AWS SDK v2 binding: as Hadoop 3.3's, with the SDK
   * v2's environment provider. The SDK v1 names of Hadoop 3.3's list are accepted on both SDKs: {@value}.
   */
  public static final String CREDENTIALS_PROVIDER_DEFAULT_V2 =
      "org.apache.hadoop.fs.s3a.TemporaryAWSCredentialsProvider,org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider,"
      + "software.amazon.awssdk.auth.credentials.EnvironmentVariableCredentialsProvider,"
      + "org.apache.hadoop.fs.s3a.auth.IAMInstanceCredentialsProvider";

  /**
   * Renames entries of {@link #CREDENTIALS_PROVIDER} before they are built ({@code old.Class=new.Class}, comma
   * separated), as S3A 3.4 does; SDK v1 names of the providers we implement need no mapping: {@value}.
   */
  public static final String CREDENTIALS_PROVIDER_MAPPING = "fs.s3a.aws.credentials.provider.mapping";

  // ---------------------------------------------------------------------------------------------------------
  // Connection pool and timeouts
  // ---------------------------------------------------------------------------------------------------------

  /** Maximum HTTP connections of one client: {@value}. */
  public static final String MAX_CONNECTIONS = "fs.s3a.connection.maximum";
  public static final int MAX_CONNECTIONS_DEFAULT = 96;

  /** TCP connect timeout: {@value}. */
  public static final String ESTABLISH_TIMEOUT = "fs.s3a.connection.establish.timeout";
  public static final long ESTABLISH_TIMEOUT_DEFAULT_MS = 5_000;

  /** Socket read timeout: {@value}. */
  public static final String SOCKET_TIMEOUT = "fs.s3a.connection.timeout";
  public static final long SOCKET_TIMEOUT_DEFAULT_MS = 200_000;

  /** Timeout of one whole request (0: none): {@value}. */
  public static final String REQUEST_TIMEOUT = "fs.s3a.connection.request.timeout";
  public static final long REQUEST_TIMEOUT_DEFAULT_MS = 0;

  // ---------------------------------------------------------------------------------------------------------
  // Read by the AWS SDK v2 binding only (keys of Hadoop 3.4's S3A; defaults are Hadoop 3.4's)
  // ---------------------------------------------------------------------------------------------------------

  /**
   * With no {@link #ENDPOINT_REGION}, or the central endpoint {@code s3.amazonaws.com}: let the SDK v2 find the
   * bucket's region (Hadoop 3.4.2's key; 3.4.1 always does): {@value}.
   */
  public static final String CROSS_REGION_ACCESS = "fs.s3a.cross.region.access.enabled";
  public static final boolean CROSS_REGION_ACCESS_DEFAULT = true;

  /** Use the AWS FIPS endpoints (only with no endpoint or the central one, as S3A 3.4 requires): {@value}. */
  public static final String ENDPOINT_FIPS = "fs.s3a.endpoint.fips";
  public static final boolean ENDPOINT_FIPS_DEFAULT = false;

  /** How long a request waits for a pooled connection: {@value}. */
  public static final String ACQUISITION_TIMEOUT = "fs.s3a.connection.acquisition.timeout";
  public static final long ACQUISITION_TIMEOUT_DEFAULT_MS = 60_000;

  /** Longest life of a pooled connection (negative: unlimited): {@value}. */
  public static final String CONNECTION_TTL = "fs.s3a.connection.ttl";
  public static final long CONNECTION_TTL_DEFAULT_MS = 300_000;

  /** Idle time after which a pooled connection is closed (0: never): {@value}. */
  public static final String CONNECTION_IDLE_TIME = "fs.s3a.connection.idle.time";
  public static final long CONNECTION_IDLE_TIME_DEFAULT_MS = 60_000;

  /** TCP keep-alive on the connections: {@value}. */
  public static final String CONNECTION_KEEPALIVE = "fs.s3a.connection.keepalive";
  public static final boolean CONNECTION_KEEPALIVE_DEFAULT = false;

  /** {@code Expect: 100-continue} on uploads (Hadoop 3.4.2's key): {@value}. */
  public static final String EXPECT_CONTINUE = "fs.s3a.connection.expect.continue";
  public static final boolean EXPECT_CONTINUE_DEFAULT = true;

  /** Timeout of one PUT or part upload, instead of {@link #REQUEST_TIMEOUT}: {@value}. */
  public static final String PART_UPLOAD_TIMEOUT = "fs.s3a.connection.part.upload.timeout";
  public static final long PART_UPLOAD_TIMEOUT_DEFAULT_MS = 900_000;

  /**
   * The shortest timeout Hadoop 3.4's S3A uses for {@link #ESTABLISH_TIMEOUT}, {@link #SOCKET_TIMEOUT},
   * {@link #ACQUISITION_TIMEOUT} and a non-zero {@link #REQUEST_TIMEOUT}: shorter settings are raised to it.
   */
  public static final long MINIMUM_NETWORK_TIMEOUT_MS = 15_000;

  /**
   * Send checksums (CRC32) on every upload as SDK v2 2.30 and later do by default; false limits them to the
   * requests that need one (what third-party stores expect). No effect with an older SDK, which has no such
   * checksums: {@value}.
   */
  public static final String CHECKSUM_CALCULATION = "fs.s3a.checksum.calculation.enabled";
  /** The name Hadoop's trunk documents for {@link #CHECKSUM_CALCULATION}: {@value}. */
  public static final String CHECKSUM_CALCULATION_OTHER = "fs.s3a.checksum.generation";
  public static final boolean CHECKSUM_CALCULATION_DEFAULT = false;

  /**
   * Send a {@code Content-MD5} header where S3 requires a checksum (bulk delete), as SDKs before 2.30 did, for the
   * third-party stores that demand it. Needs an SDK with its legacy MD5 plugin (2.31 and later); before 2.30 the
   * SDK sends it anyway: {@value}.
   */
  public static final String MD5_HEADER = "fs.s3a.md5.header.enabled";
  /** The name Hadoop's trunk documents for {@link #MD5_HEADER}: {@value}. */
  public static final String MD5_HEADER_OTHER = "fs.s3a.request.md5.header";
  public static final boolean MD5_HEADER_DEFAULT = true;

  // ---------------------------------------------------------------------------------------------------------
  // Server-side encryption
  // ---------------------------------------------------------------------------------------------------------

  /** Server-side encryption: empty, {@code AES256}, {@code SSE-KMS} or {@code SSE-C}: {@value}. */
  public static final String ENCRYPTION_ALGORITHM = "fs.s3a.encryption.algorithm";
  /** The name Hadoop 3.3 still accepts for {@link #ENCRYPTION_ALGORITHM}: {@value}. */
  public static final String ENCRYPTION_ALGORITHM_OLD = "fs.s3a.server-side-encryption-algorithm";
  public static final String ENCRYPTION_ALGORITHM_DEFAULT = "";

  /** KMS key id/ARN for SSE-KMS, or the base64 AES-256 key for SSE-C (never logged): {@value}. */
  public static final String ENCRYPTION_KEY = "fs.s3a.encryption.key";
  /** The name Hadoop 3.3 still accepts for {@link #ENCRYPTION_KEY}: {@value}. */
  public static final String ENCRYPTION_KEY_OLD = "fs.s3a.server-side-encryption.key";

  // ---------------------------------------------------------------------------------------------------------
  // Uploads
  // ---------------------------------------------------------------------------------------------------------

  /** Size of each part of a multipart upload (at least 5 MiB): {@value}. */
  public static final String MULTIPART_SIZE = "fs.s3a.multipart.size";
  public static final long MULTIPART_SIZE_DEFAULT = 64L * 1024 * 1024;

  /** Uploads at least this large use multipart; smaller ones a single PUT: {@value}. */
  public static final String MULTIPART_THRESHOLD = "fs.s3a.multipart.threshold";
  public static final long MULTIPART_THRESHOLD_DEFAULT = 128L * 1024 * 1024;

  /** The smallest part S3 accepts (except the last one). */
  public static final long MULTIPART_MIN_SIZE = 5L * 1024 * 1024;

  // ---------------------------------------------------------------------------------------------------------
  // Retries (objectcommit's own: the SDK's retries are switched off so that every retry is ours and counted)
  // ---------------------------------------------------------------------------------------------------------

  /** Retries of a request after a 500, a reset connection or a timeout: {@value}. */
  public static final String RETRY_LIMIT = PREFIX + "retry.limit";
  public static final int RETRY_LIMIT_DEFAULT = 5;

  /** Retries of a request after throttling (503 SlowDown): {@value}. */
  public static final String RETRY_THROTTLE_LIMIT = PREFIX + "retry.throttle.limit";
  public static final int RETRY_THROTTLE_LIMIT_DEFAULT = 10;

  /** Retries of a request whose connection could not be established (endpoint down or wrong): {@value}. */
  public static final String RETRY_CONNECT_LIMIT = PREFIX + "retry.connect.limit";
  public static final int RETRY_CONNECT_LIMIT_DEFAULT = 2;

  /** First backoff; each retry doubles it, with full jitter: {@value}. */
  public static final String RETRY_INTERVAL = PREFIX + "retry.interval";
  public static final long RETRY_INTERVAL_DEFAULT_MS = 100;

  /** Cap of one backoff: {@value}. */
  public static final String RETRY_MAX_INTERVAL = PREFIX + "retry.max-interval";
  public static final long RETRY_MAX_INTERVAL_DEFAULT_MS = 5_000;

  // ---------------------------------------------------------------------------------------------------------
  // Conditional writes
  // ---------------------------------------------------------------------------------------------------------

  /**
   * How to make sure the store honours {@code If-None-Match} / {@code If-Match} on writes: {@value}.
   * <ul>
   *   <li>{@code detect} (default): trust Amazon S3, which documents every guarantee, without a request (the
   *       endpoint forms recognised: {@code guarantee.AmazonS3Endpoint}, docs/stores.md); on any other store run the
   *       store guarantee check (docs/stores.md) for the guarantees each component or conditional write relies on,
   *       once per bucket and endpoint per JVM, and cache the verdict; fail with {@link StoreGuaranteeException} (a
   *       {@link ConditionalWritesUnsupportedException}) naming the failed guarantee;</li>
   *   <li>{@code check}: as {@code detect}, and Amazon S3 is checked too;</li>
   *   <li>{@code assume}: trust the store without the check;</li>
   *   <li>{@code emulate}: the documented weaker mode for stores without conditional writes: check with HEAD,
   *       then write. Safe with one writer per key only; a race between writers can lose an update.</li>
   * </ul>
   */
  public static final String CONDITIONAL_WRITES = PREFIX + "conditional-writes";
  public static final String CONDITIONAL_WRITES_DEFAULT = "detect";

  /**
   * Which AWS SDK sends the requests: {@value}.
   * <ul>
   *   <li>{@code auto} (default): the one on the classpath, as Hadoop's S3A: SDK v2
   *       ({@code software.amazon.awssdk:s3}, with hadoop-aws 3.4+) or SDK v1 ({@code com.amazonaws:aws-java-sdk-s3},
   *       with hadoop-aws 3.3); when both are there, the one of the Hadoop version found (3.4+: v2);</li>
   *   <li>{@code v1} / {@code v2}: that SDK, failing with {@link SdkMissingException} naming this key when it is not
   *       on the classpath.</li>
   * </ul>
   */
  public static final String SDK = PREFIX + "sdk";
  public static final String SDK_DEFAULT = "auto";

  /**
   * Class of an {@link ObjectStoreFactory} that opens every store of the bucket instead of the S3 store (public,
   * with a public no-argument constructor; resolved once per {@link StoreContext}): the one way tests and wrappers
   * give every component (checkpoint-fs, both committers, the command) another store, such as the in-memory store
   * of the store module's test jar. Settable per bucket; empty (the default): the S3 store: {@value}.
   */
  public static final String STORE_FACTORY = PREFIX + "store.factory";
  public static final String STORE_FACTORY_DEFAULT = "";

  /**
   * Key prefix under which the store guarantee check writes (and then deletes) its objects, for every component of
   * the bucket: {@value}. Unset (the default), the check writes where the component that asks is about to write
   * anyway (checkpoint-fs: {@code <fs.objectcommit.checkpoint.s3.prefix>.ckpt/probe/}; the direct committer:
   * {@code <dest>/_objectcommit_direct/probe/}; the staging committer: {@code <dest>/.objectcommit-staging/probe/};
   * a conditional write through the store alone: {@code <the key's parent>/.objectcommit/probe/}), so that the
   * permissions the component needs are all the check needs (docs/stores.md).
   */
  public static final String PROBE_PREFIX = PREFIX + "probe.prefix";
  public static final String PROBE_PREFIX_DEFAULT = "";

  /**
   * Where the check writes for a caller that names no place ({@code ObjectStore.requireGuarantees} without a
   * {@code ProbeSite}, and capability queries before any): {@value}.
   */
  public static final String PROBE_PREFIX_FALLBACK = ".objectcommit/probe/";

  // ---------------------------------------------------------------------------------------------------------
  // Secrets in Hadoop credential providers
  // ---------------------------------------------------------------------------------------------------------

  /**
   * Hadoop credential provider path(s) searched for the {@code fs.s3a} secrets before
   * {@code hadoop.security.credential.provider.path}, as S3A does (for example
   * {@code jceks://hdfs@namenode/user/me/s3.jceks}): {@value}.
   */
  public static final String S3A_CREDENTIAL_PROVIDER_PATH = "fs.s3a.security.credential.provider.path";
  public static final String S3A_CREDENTIAL_PROVIDER_PATH_DEFAULT = "";

  /**
   * Attempts of one compare-and-swap change of a small record (a direct committer task record, a checkpoint
   * directory manifest) while other writers keep changing it, before failing with
   * {@link CasConflictException}: {@value}. The checkpoint file system's
   * {@code fs.objectcommit.checkpoint.s3.cas-attempts}, when set, wins for checkpoints.
   */
  public static final String CAS_ATTEMPTS = StoreConstants.PREFIX + "cas-attempts";
  public static final int CAS_ATTEMPTS_DEFAULT = 20;
  /** Bounds of {@link #CAS_ATTEMPTS}. */
  public static final int CAS_ATTEMPTS_MIN = 1;
  public static final int CAS_ATTEMPTS_MAX = 1000;

  // ---------------------------------------------------------------------------------------------------------
  // Request attribution (the Referer header S3 server access logs record)
  // ---------------------------------------------------------------------------------------------------------

  /**
   * Whether every request carries the attribution header ({@code io.objectcommit.store.audit.RequestAttribution}:
   * objectcommit's version, the component, the Spark application, job and task attempt, in the HTTP
   * {@code Referer} that S3 server access logs record, laid out as S3A's auditing lays out its own). When unset,
   * {@link #S3A_AUDIT_REFERRER_ENABLED} decides; when both are unset, on: {@value}.
   */
  public static final String AUDIT_REFERRER_ENABLED = PREFIX + "audit.referrer.enabled";
  public static final boolean AUDIT_REFERRER_ENABLED_DEFAULT = true;

  /** S3A's switch of its own referrer header, honoured when {@link #AUDIT_REFERRER_ENABLED} is unset: {@value}. */
  public static final String S3A_AUDIT_REFERRER_ENABLED = "fs.s3a.audit.referrer.enabled";

  /**
   * Comma-separated fields left out of the attribution header (for example {@code pr,p1}: no user name, no object
   * path). When unset, {@link #S3A_AUDIT_REFERRER_FILTER} decides; empty: every field: {@value}.
   */
  public static final String AUDIT_REFERRER_FILTER = PREFIX + "audit.referrer.filter";
  public static final String AUDIT_REFERRER_FILTER_DEFAULT = "";

  /** S3A's list of fields filtered out of its referrer, honoured when {@link #AUDIT_REFERRER_FILTER} is unset: {@value}. */
  public static final String S3A_AUDIT_REFERRER_FILTER = "fs.s3a.audit.referrer.filter";

  // ---------------------------------------------------------------------------------------------------------
  // One store guarantee check per Spark application
  // ---------------------------------------------------------------------------------------------------------

  /**
   * With {@link #CONDITIONAL_WRITES}{@code =detect}: whether a Spark driver hands the guarantee check's verdict to
   * the executors of its application (in the Hadoop configuration Spark ships to their tasks, under the internal
   * keys {@code fs.objectcommit.internal.store-verdict.*}), which then take it instead of checking the store again;
   * {@code false}: every JVM checks for itself (docs/stores.md, "How the verdict reaches the executors"): {@value}.
   */
  public static final String SHARE_VERDICT = PREFIX + "conditional-writes.share-verdict";
  public static final boolean SHARE_VERDICT_DEFAULT = true;
}
