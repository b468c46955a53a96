package io.objectcommit.testsupport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * moto server (5.2.5) with its IAM enforcement switched on, on a free 127.0.0.1 port, answering one request at a time
 * (so that the store guarantee check, whose races moto loses now and then, passes every time: tests on it are about
 * permissions; {@code tools/stores/moto-serial.py}), with one bucket, an admin user
 * allowed everything (to set up, look and clean up) and a user whose policy is the one given, typically
 * {@link #prefixPolicy}: the objects of one prefix, as teams share a bucket on AWS. Every request after the set-up is
 * authenticated and authorized against those policies ({@code tools/stores/moto-iam.py}). moto starts with
 * {@code INITIAL_NO_AUTH_ACTION_COUNT} unset (no request checked); the set-up script sets it to 0 once the users
 * exist, through moto's {@code /moto-api/reset-auth}, which also restarts the count: a count given in the
 * environment would have to predict the readiness probes, which moto counts too.
 *
 * <p>What moto's IAM mode models, checked by {@code MotoIamIT} (docs/stores.md, "IAM permissions"): it refuses an
 * object action outside the policy's resources (403 {@code AccessDenied}: PUT, GET, DELETE, multipart uploads) and
 * allows it inside. Where it differs from AWS: it refuses signatures of the AWS SDK for Java 1.x (so the ITs on it
 * run on SDK v2); it does not evaluate an {@code s3:prefix} condition (a listing outside the prefix is allowed); it
 * authorizes a bulk delete on the bucket's ARN, not key by key ({@link #prefixPolicyForMoto}); it refuses HeadBucket
 * to a user allowed {@code s3:ListBucket}; and it answers 404 for a missing key where AWS answers 403 to a caller
 * not allowed to list it.
 */
public final class MotoIam implements AutoCloseable {

  private static final Duration SETUP_TIMEOUT = Duration.ofMinutes(2);
  private static final Pattern KEYS = Pattern.compile(
      "\"([a-z0-9-]+)\"\\s*:\\s*\\[\\s*\"([^\"]+)\"\\s*,\\s*\"([^\"]+)\"\\s*]");
  /** The user allowed everything. */
  private static final String ADMIN = "admin";
  /** The user of {@link #start(Path, String, String)}. */
  private static final String SCOPED = "scoped";

  private final StoreHost host;
  private final String bucket;
  private final Map<String, String> policies;
  private final Map<String, S3Endpoint> users;

  private MotoIam(StoreHost host, String bucket, Map<String, String> policies, Map<String, S3Endpoint> users) {
    this.host = host;
    this.bucket = bucket;
    this.policies = policies;
    this.users = users;
  }

  /**
   * Starts moto, creates {@code bucket}, the admin and the user with {@code policy} ({@link #scoped()}), then
   * switches enforcement on.
   *
   * @param policy the IAM policy document of the scoped user (JSON)
   */
  public static MotoIam start(Path workDir, String bucket, String policy) throws IOException {
    return start(workDir, bucket, Map.of(SCOPED, policy));
  }

  /**
   * As {@link #start(Path, String, String)}, with one user per entry of {@code policies} (name to policy document,
   * JSON), each reached through {@link #user(String)}.
   */
  public static MotoIam start(Path workDir, String bucket, Map<String, String> policies) throws IOException {
    Path[] pythonAndScripts = StoreHost.motoPythonAndScripts(workDir);
    StoreHost host = StoreHost.startSerializedMoto(workDir);
    try {
      Path dir = Files.createDirectories(workDir.resolve("moto-iam-" + host.port()));
      List<String> command = new ArrayList<>(List.of(pythonAndScripts[0].toString(),
          pythonAndScripts[1].resolve("moto-iam.py").toString(), "--endpoint", host.endpoint().uri().toString(),
          "--bucket", bucket));
      for (Map.Entry<String, String> p : new TreeMap<>(policies).entrySet()) {
        if (!p.getKey().matches("[a-z0-9-]+") || p.getKey().equals(ADMIN)) {
          throw new IllegalArgumentException("a user name of lower-case letters, digits and '-': " + p.getKey());
        }
        Path policyFile = dir.resolve(p.getKey() + "-policy.json");
        Files.writeString(policyFile, p.getValue(), StandardCharsets.UTF_8);
        command.addAll(List.of("--user", p.getKey() + "=" + policyFile));
      }
      Path keysFile = dir.resolve("keys.json");
      command.addAll(List.of("--out", keysFile.toString()));
      SupervisedServer.ScriptResult r = SupervisedServer.runScript(command, dir.resolve("moto-iam.log"),
          SETUP_TIMEOUT, "setting up moto's IAM");
      if (r.exitCode() != 0) {
        throw new IOException("setting up moto's IAM failed (exit " + r.exitCode() + "):\n"
            + SupervisedServer.tail(r.stderr(), 30));
      }
      String keys = Files.readString(keysFile, StandardCharsets.UTF_8);
      Files.delete(keysFile);
      String uri = host.endpoint().uri().toString();
      Map<String, S3Endpoint> users = new TreeMap<>();
      users.put(ADMIN, endpoint(keys, ADMIN, uri));
      for (String name : policies.keySet()) {
        users.put(name, endpoint(keys, name, uri));
      }
      return new MotoIam(host, bucket, Map.copyOf(policies), users);
    } catch (IOException | RuntimeException e) {
      host.close();
      throw e;
    }
  }

  private static S3Endpoint endpoint(String keys, String who, String uri) throws IOException {
    Matcher m = KEYS.matcher(keys);
    while (m.find()) {
      if (m.group(1).equals(who)) {
        return new S3Endpoint(S3Endpoint.Kind.STORE, uri, S3TestSettings.DEFAULT_REGION, m.group(2), m.group(3),
            true);
      }
    }
    throw new IOException("the set-up script gave no keys of " + who);
  }

  /**
   * The policy of a job that may use the objects under {@code prefix} only: {@code s3:PutObject},
   * {@code s3:GetObject}, {@code s3:DeleteObject}, {@code s3:AbortMultipartUpload} and
   * {@code s3:ListMultipartUploadParts} on {@code arn:aws:s3:::bucket/prefix*}, and {@code s3:ListBucket} on the
   * bucket with an {@code s3:prefix} condition: the policy docs/user-guide.md gives users.
   *
   * @param prefix a key prefix ending with '/'
   */
  public static String prefixPolicy(String bucket, String prefix) {
    return "{\"Version\":\"2012-10-17\",\"Statement\":["
        + "{\"Sid\":\"ObjectsUnderThePrefix\",\"Effect\":\"Allow\",\"Action\":[\"s3:PutObject\",\"s3:GetObject\","
        + "\"s3:DeleteObject\",\"s3:AbortMultipartUpload\",\"s3:ListMultipartUploadParts\"],"
        + "\"Resource\":\"arn:aws:s3:::" + bucket + "/" + prefix + "*\"},"
        + "{\"Sid\":\"ListThePrefix\",\"Effect\":\"Allow\",\"Action\":\"s3:ListBucket\","
        + "\"Resource\":\"arn:aws:s3:::" + bucket + "\","
        + "\"Condition\":{\"StringLike\":{\"s3:prefix\":[\"" + prefix + "\",\"" + prefix + "*\"]}}}]}";
  }

  /**
   * {@link #prefixPolicy} with one more statement, which moto needs and AWS ignores: {@code s3:DeleteObject} on the
   * bucket's ARN. moto authorizes a bulk delete (DeleteObjects) as {@code s3:DeleteObject} on the bucket, and without
   * that statement refuses every key of it, those under the prefix included; AWS authorizes each key on its own ARN,
   * which the bucket's ARN never matches, so the statement grants nothing there. With it, moto lets a bulk delete
   * remove keys outside the prefix too (the one refusal it does not model; {@code MotoIamIT} shows both).
   */
  public static String prefixPolicyForMoto(String bucket, String prefix) {
    return plusStatement(prefixPolicy(bucket, prefix), "{\"Sid\":\"BulkDeleteAsMotoAuthorizesIt\",\"Effect\":\"Allow\","
        + "\"Action\":\"s3:DeleteObject\",\"Resource\":\"arn:aws:s3:::" + bucket + "\"}");
  }

  /**
   * {@code policy} with one more statement (a JSON object), such as a grant to read the whole bucket.
   */
  public static String plusStatement(String policy, String statement) {
    return policy.substring(0, policy.lastIndexOf(']')) + "," + statement + "]}";
  }

  /** The bucket the set-up created. */
  public String bucket() {
    return bucket;
  }

  /** The scoped user's policy document. */
  public String policy() {
    return policies.get(SCOPED);
  }

  /** The admin's endpoint: allowed everything. */
  public S3Endpoint admin() {
    return users.get(ADMIN);
  }

  /** The scoped user's endpoint: allowed what {@link #policy()} allows. */
  public S3Endpoint scoped() {
    return user(SCOPED);
  }

  /** The endpoint of a user given to {@link #start(Path, String, Map)}. */
  public S3Endpoint user(String name) {
    S3Endpoint e = users.get(name);
    if (e == null) {
      throw new IllegalArgumentException("no user " + name + " (users: " + users.keySet() + ")");
    }
    return e;
  }

  /** The server's port on 127.0.0.1. */
  public int port() {
    return host.port();
  }

  /** The server's log: one line per request, {@code "PUT /bucket/key HTTP/1.1" 200}. */
  public Path logFile() {
    return host.logFile().orElseThrow();
  }

  /** The last lines of the server's log (each request with its status). */
  public String logTail(int lines) {
    return host.logTail(lines);
  }

  @Override
  public void close() {
    host.close();
  }

  @Override
  public String toString() {
    return "moto with IAM enforcement on " + host.endpoint().uri() + ", bucket " + bucket;
  }
}
