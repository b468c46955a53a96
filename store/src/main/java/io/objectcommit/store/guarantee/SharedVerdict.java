package io.objectcommit.store.guarantee;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.objectcommit.store.StoreConstants;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A verdict of the store guarantee check as a Spark driver hands it to the executors of its application: which
 * application reached it, for which store (bucket and endpoint, the verdicts' key), which guarantees were checked
 * and which of them failed, with what the check saw. Immutable.
 *
 * <p>It travels as the value of an internal configuration key ({@link #key}), one per bucket and endpoint, in the
 * Hadoop configuration Spark ships to tasks: a small JSON object, for example
 * <pre>{"v":1,"application":"app-20261125101010-0003","store":"bucket 'lake' at endpoint http://10.0.0.5:9000 (region us-east-1)",
 *  "held":["IF_NONE_MATCH_PUT","ATOMIC_EXCLUSIVE_CREATE"],"failed":{"ABORT_KEEPS_EXISTING":"the existing object was deleted"}}</pre>
 */
public final class SharedVerdict {

  /** Prefix of the keys (internal: set by objectcommit on the driver, never by users): {@value}. */
  public static final String KEY_PREFIX = StoreConstants.PREFIX + "internal.store-verdict.";

  private static final int FORMAT = 1;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final String application;
  private final String where;
  private final Set<StoreGuarantee> checked;
  private final Map<StoreGuarantee, String> failed;

  /**
   * @param application the Spark application whose driver reached the verdict
   * @param where the store's bucket and endpoint, as {@link StoreGuarantees} keys its verdicts
   * @param checked the guarantees checked (held or failed)
   * @param failed the failed ones among them, with what the check saw
   */
  public SharedVerdict(String application, String where, Set<StoreGuarantee> checked,
      Map<StoreGuarantee, String> failed) {
    this.application = Objects.requireNonNull(application, "application");
    this.where = Objects.requireNonNull(where, "where");
    EnumSet<StoreGuarantee> c = EnumSet.noneOf(StoreGuarantee.class);
    c.addAll(checked);
    c.addAll(failed.keySet());
    this.checked = Collections.unmodifiableSet(c);
    this.failed = Collections.unmodifiableMap(failed.isEmpty() ? new EnumMap<>(StoreGuarantee.class)
        : new EnumMap<>(failed));
  }

  /**
   * The configuration key of the verdict of {@code where} in {@code bucket}:
   * {@code fs.objectcommit.internal.store-verdict.<bucket>.<hash of the bucket and endpoint>}, so that a verdict of
   * one endpoint is never read for another (the value names the store too, and is compared).
   */
  public static String key(String bucket, String where) {
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(where.getBytes(StandardCharsets.UTF_8));
      StringBuilder hex = new StringBuilder();
      for (int i = 0; i < 6; i++) {
        hex.append(String.format("%02x", d[i] & 0xff));
      }
      return KEY_PREFIX + bucket + "." + hex;
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  public String application() {
    return application;
  }

  /** The bucket and endpoint. */
  public String where() {
    return where;
  }

  public Set<StoreGuarantee> checked() {
    return checked;
  }

  /** The failed guarantees, with what the check saw. */
  public Map<StoreGuarantee, String> failed() {
    return failed;
  }

  /** The guarantees that held. */
  public Set<StoreGuarantee> held() {
    EnumSet<StoreGuarantee> h = EnumSet.noneOf(StoreGuarantee.class);
    h.addAll(checked);
    h.removeAll(failed.keySet());
    return h;
  }

  /** The configuration value. */
  public String encode() {
    ObjectNode n = JSON.createObjectNode();
    n.put("v", FORMAT);
    n.put("application", application);
    n.put("store", where);
    ArrayNode held = n.putArray("held");
    held().forEach(g -> held.add(g.name()));
    ObjectNode f = n.putObject("failed");
    failed.forEach((g, seen) -> f.put(g.name(), seen));
    try {
      return JSON.writeValueAsString(n);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write a verdict", e);
    }
  }

  /**
   * The verdict of a configuration value.
   *
   * @throws IllegalArgumentException when the value is not one this version writes (saying what is wrong)
   */
  public static SharedVerdict decode(String value) {
    JsonNode n;
    try {
      n = JSON.readTree(value);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage(), e);
    }
    if (n == null || !n.isObject() || n.path("v").asInt(-1) != FORMAT) {
      throw new IllegalArgumentException("not a verdict of format " + FORMAT);
    }
    String application = n.path("application").asText("");
    String where = n.path("store").asText("");
    if (application.isEmpty() || where.isEmpty() || !n.path("held").isArray() || !n.path("failed").isObject()) {
      throw new IllegalArgumentException("a verdict needs application, store, held and failed");
    }
    EnumSet<StoreGuarantee> held = EnumSet.noneOf(StoreGuarantee.class);
    for (JsonNode g : n.path("held")) {
      held.add(guarantee(g.asText()));
    }
    Map<StoreGuarantee, String> failed = new EnumMap<>(StoreGuarantee.class);
    for (Iterator<Map.Entry<String, JsonNode>> it = n.path("failed").fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      failed.put(guarantee(e.getKey()), e.getValue().asText());
    }
    if (held.stream().anyMatch(failed::containsKey)) {
      throw new IllegalArgumentException("a guarantee both held and failed");
    }
    return new SharedVerdict(application, where, held, failed);
  }

  private static StoreGuarantee guarantee(String name) {
    try {
      return StoreGuarantee.valueOf(name);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("unknown guarantee " + name, e);
    }
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof SharedVerdict)) {
      return false;
    }
    SharedVerdict v = (SharedVerdict) o;
    return application.equals(v.application) && where.equals(v.where) && checked.equals(v.checked)
        && failed.equals(v.failed);
  }

  @Override
  public int hashCode() {
    return Objects.hash(application, where, checked, failed);
  }

  @Override
  public String toString() {
    return "verdict of application " + application + " on " + where + ": " + held() + " hold"
        + (failed.isEmpty() ? "" : ", FAILED " + failed.keySet());
  }
}
