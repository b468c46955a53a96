package io.objectcommit.store.audit;

import io.objectcommit.store.spark.SparkRuntime;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.apache.hadoop.fs.audit.CommonAuditContext;
import org.apache.hadoop.security.UserGroupInformation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The attribution header of every request of one store: the HTTP {@code Referer}, which S3 server access logs
 * record (and CloudTrail data events as the request's referrer), laid out as Hadoop S3A's auditing lays out its own
 * ({@code org.apache.hadoop.fs.store.audit.HttpReferrerAuditHeader}), so that tools reading S3A's read ours:
 *
 * <pre>
 * https://audit.example.org/hadoop/1/&lt;operation&gt;/&lt;span id&gt;/?op=&lt;operation&gt;&amp;p1=s3a://&lt;bucket&gt;/&lt;key&gt;&amp;pr=&lt;principal&gt;&amp;ps=&lt;process&gt;&amp;id=&lt;span id&gt;&amp;t0=&lt;thread&gt;&amp;ts=&lt;millis&gt;
 *     &amp;oc=&lt;objectcommit version&gt;&amp;co=&lt;component&gt;&amp;sa=&lt;Spark application&gt;&amp;ji=&lt;job&gt;&amp;ta=&lt;task attempt&gt;&amp;st=&lt;Spark task&gt;[&amp;ck=guarantee-check]
 * </pre>
 *
 * <p>S3A's fields keep S3A's meaning: the operation ({@code op}, our statistic names: {@code op_put},
 * {@code op_put_conditional}, ...), the object ({@code p1}), the principal ({@code pr}, Hadoop's current user),
 * the process ({@code ps}: the JVM, the same value as S3A's in that JVM), a span id per request ({@code id}, also
 * in the path, so that a header cut short still carries it), the thread ({@code t0}) and the time ({@code ts}),
 * the job ({@code ji}) and the task attempt ({@code ta}). Our own: {@code oc} (objectcommit's version: present
 * only in our requests), {@code co} (the component), {@code sa} (Spark's application id), {@code st} (the id Spark
 * gives the task running the request, its "TID"), {@code ck} (on the store guarantee check's requests). A field
 * without a value is left out, as are those the settings filter out. The job is the component's
 * ({@link AuditContext#jobId()}), else the streaming query running on the thread. Never a secret: credentials
 * and tokens are not known here, and the values are ids, a path and a user name.
 *
 * <p>Built per request on the thread that sends it, so the Spark task and thread are the request's own (a task
 * attempt's store sending from another thread, such as a parallel upload, names the task that opened it).
 * Thread-safe.
 */
public final class RequestAttribution {

  private static final Logger LOG = LoggerFactory.getLogger(RequestAttribution.class);

  /** The header: {@value}. */
  public static final String HEADER = "Referer";
  /** The host of the URL, as S3A's (example.org never resolves): {@value}. */
  public static final String HOST = "audit.example.org";
  /** The URL's path before the operation and span id, as S3A's: {@value}. */
  public static final String PATH_PREFIX = "/hadoop/1/";

  /** S3A's field: the operation: {@value}. */
  public static final String OP = "op";
  /** S3A's field: the object (or the listed prefix): {@value}. */
  public static final String PATH = "p1";
  /** S3A's field: the principal, Hadoop's current user: {@value}. */
  public static final String PRINCIPAL = "pr";
  /** S3A's field: the process (JVM): {@value}. */
  public static final String PROCESS = "ps";
  /** S3A's field: the span id (here one per request): {@value}. */
  public static final String SPAN_ID = "id";
  /** S3A's field: the thread: {@value}. */
  public static final String THREAD = "t0";
  /** S3A's field: the time, in milliseconds since the epoch: {@value}. */
  public static final String TIMESTAMP = "ts";
  /** S3A's field: the job: {@value}. */
  public static final String JOB = "ji";
  /** S3A's field: the task attempt: {@value}. */
  public static final String TASK_ATTEMPT = "ta";
  /** Ours: objectcommit's version (only our requests carry it): {@value}. */
  public static final String VERSION = "oc";
  /** Ours: the component ({@link AuditContext}'s constants): {@value}. */
  public static final String COMPONENT = "co";
  /** Ours: Spark's application id: {@value}. */
  public static final String SPARK_APP = "sa";
  /** Ours: the id Spark gives the task attempt sending the request (the "TID" of Spark's logs and UI): {@value}. */
  public static final String SPARK_TASK = "st";
  /** Ours: present on the store guarantee check's requests: {@value}. */
  public static final String CHECK = "ck";
  /** The value of {@link #CHECK}: {@value}. */
  public static final String CHECK_VALUE = "guarantee-check";

  private static final RequestAttribution NONE = new RequestAttribution(AuditSettings.OFF, AuditContext.UNNAMED,
      SparkRuntime.jvm(), "", false, System::currentTimeMillis);

  private final AuditSettings settings;
  private final AuditContext context;
  private final SparkRuntime spark;
  private final String bucket;
  private final boolean check;
  private final LongSupplier clock;
  /** The Spark task that opened a task attempt's store, for its requests sent from other threads (uploads). */
  private final Long openingTask;
  private final String spanPrefix = UUID.randomUUID().toString();
  private final AtomicLong spans = new AtomicLong();

  /** The attribution of a store of {@code bucket} opened in {@code context}. */
  public RequestAttribution(AuditSettings settings, AuditContext context, SparkRuntime spark, String bucket) {
    this(settings, context, spark, bucket, false, System::currentTimeMillis);
  }

  RequestAttribution(AuditSettings settings, AuditContext context, SparkRuntime spark, String bucket, boolean check,
      LongSupplier clock) {
    this(settings, context, spark, bucket, check, clock, openingTask(context, spark));
  }

  private RequestAttribution(AuditSettings settings, AuditContext context, SparkRuntime spark, String bucket,
      boolean check, LongSupplier clock, Long openingTask) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.context = Objects.requireNonNull(context, "context");
    this.spark = Objects.requireNonNull(spark, "spark");
    this.bucket = Objects.requireNonNull(bucket, "bucket");
    this.check = check;
    this.clock = clock;
    this.openingTask = openingTask;
  }

  /**
   * A store opened for a task attempt is that attempt's: its requests sent from other threads (parallel uploads)
   * name the Spark task that opened it. Other stores (a file system's, shared by the tasks of a JVM) name only the
   * task of the sending thread.
   */
  private static Long openingTask(AuditContext context, SparkRuntime spark) {
    if (context.taskAttemptId() == null) {
      return null;
    }
    OptionalLong t = spark.taskAttemptId();
    return t.isPresent() ? t.getAsLong() : null;
  }

  /** No header on any request (stores built without a configuration, tests of the request path). */
  public static RequestAttribution none() {
    return NONE;
  }

  /** The attribution of the store guarantee check run for this store's component: marked {@link #CHECK}. */
  public RequestAttribution forGuaranteeCheck() {
    return new RequestAttribution(settings, context, spark, bucket, true, clock, openingTask);
  }

  /** Whether requests carry the header. */
  public boolean enabled() {
    return settings.enabled();
  }

  public AuditContext context() {
    return context;
  }

  /**
   * The header's value for one request, built now on the sending thread, or null when the header is off.
   *
   * @param operation the store's statistic name of the request ({@code op_put}, ...)
   * @param key the object's key, or the prefix of a listing ("" for the bucket)
   */
  public String header(String operation, String key) {
    if (!settings.enabled()) {
      return null;
    }
    try {
      String span = spanPrefix + "-" + String.format("%08d", spans.incrementAndGet());
      Map<String, String> f = new LinkedHashMap<>();
      f.put(OP, operation);
      f.put(PATH, "s3a://" + bucket + "/" + (key == null ? "" : key));
      f.put(PRINCIPAL, Process.PRINCIPAL);
      f.put(PROCESS, Process.ID);
      f.put(SPAN_ID, span);
      f.put(THREAD, Long.toString(Thread.currentThread().getId()));
      f.put(TIMESTAMP, Long.toString(clock.getAsLong()));
      f.put(VERSION, ObjectCommitVersion.get());
      f.put(COMPONENT, context.component());
      f.put(SPARK_APP, spark.applicationId().orElse(null));
      f.put(JOB, context.jobId() != null ? context.jobId()
          : spark.localProperty(SparkRuntime.STREAMING_QUERY_ID).orElse(null));
      f.put(TASK_ATTEMPT, context.taskAttemptId());
      OptionalLong task = spark.taskAttemptId();
      f.put(SPARK_TASK, task.isPresent() ? Long.toString(task.getAsLong())
          : openingTask != null ? Long.toString(openingTask) : null);
      f.put(CHECK, check ? CHECK_VALUE : null);
      StringBuilder url = new StringBuilder("https://").append(HOST).append(PATH_PREFIX)
          .append(encode(operation)).append('/').append(span).append("/?");
      boolean first = true;
      for (Map.Entry<String, String> e : f.entrySet()) {
        if (e.getValue() == null || e.getValue().isEmpty() || settings.filter().contains(e.getKey())) {
          continue;
        }
        url.append(first ? "" : "&").append(e.getKey()).append('=').append(encode(e.getValue()));
        first = false;
      }
      return url.toString();
    } catch (RuntimeException e) {
      // an attribution problem must never stop a request
      LOG.warn("Could not build the attribution header of {} {}: {}", operation, key, e.toString());
      return null;
    }
  }

  /**
   * Percent-encodes a query value: letters, digits, {@code - . _ ~ / :} stay as they are (a path stays readable);
   * everything else, {@code & = + %} and spaces included, is {@code %XX} of its UTF-8 bytes, so that both a form
   * decoder and a plain one read the value back.
   */
  static String encode(String s) {
    StringBuilder sb = new StringBuilder(s.length() + 16);
    for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
      int c = b & 0xff;
      if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.'
          || c == '_' || c == '~' || c == '/' || c == ':') {
        sb.append((char) c);
      } else {
        sb.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
            .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
      }
    }
    return sb.toString();
  }

  /** What is the same for every request of this JVM. */
  private static final class Process {
    /** Hadoop's process id of S3A's auditing when Hadoop has it (3.3.1+), so that both name a JVM alike. */
    static final String ID = processId();
    static final String PRINCIPAL = principal();

    private static String processId() {
      try {
        return CommonAuditContext.PROCESS_ID;
      } catch (LinkageError e) {
        return UUID.randomUUID().toString();
      }
    }

    private static String principal() {
      try {
        return UserGroupInformation.getCurrentUser().getUserName();
      } catch (IOException | RuntimeException | LinkageError e) {
        LOG.debug("no Hadoop user for the attribution header: {}", e.toString());
        return Optional.ofNullable(System.getProperty("user.name")).orElse("");
      }
    }
  }

  @Override
  public String toString() {
    return "RequestAttribution{" + context + ", " + settings + (check ? ", guarantee check" : "") + "}";
  }
}
