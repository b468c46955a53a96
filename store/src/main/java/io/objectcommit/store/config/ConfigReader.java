package io.objectcommit.store.config;

import io.objectcommit.store.StoreConstants;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.ToLongFunction;
import org.apache.hadoop.conf.Configuration;

/**
 * Reads configuration for one bucket: a per-bucket override ({@code fs.s3a.bucket.<bucket>.endpoint} for
 * {@code fs.s3a.endpoint}; {@code fs.objectcommit.bucket.<bucket>.retry.limit} for {@code
 * fs.objectcommit.retry.limit}) wins over the base key. Bad values fail at once with an
 * {@link IllegalArgumentException} naming the key that was actually read. Secrets are read through
 * {@link Configuration#getPassword(String)}, so Hadoop credential providers work, and never appear in messages.
 *
 * <p>The one way objectcommit reads its configuration: every module parses its keys once, through this class, into
 * an immutable options object ({@code StoreOptions}, {@code CheckpointOptions}, the committers' options). Keys
 * outside {@code fs.s3a.} and {@code fs.objectcommit.} (Hadoop's or Spark's own) have no per-bucket form and are
 * read as they are. The "bucket" is the bucket of the store being configured; for a {@code ckpt://} authority on
 * the local-path backend it is the authority's name.
 */
public final class ConfigReader {

  private final Configuration conf;
  private final String bucket;

  public ConfigReader(Configuration conf, String bucket) {
    this.conf = Objects.requireNonNull(conf, "conf");
    this.bucket = Objects.requireNonNull(bucket, "bucket");
  }

  public String bucket() {
    return bucket;
  }

  public Configuration configuration() {
    return conf;
  }

  /** The key actually in force for {@code key}: its per-bucket form when that is set, else {@code key}. */
  public String effectiveKey(String key) {
    String perBucket = perBucketKey(key, bucket);
    return perBucket != null && conf.get(perBucket) != null ? perBucket : key;
  }

  /** {@code fs.s3a.bucket.<bucket>.<rest>} for {@code fs.s3a.<rest>} (same for fs.objectcommit.), else null. */
  public static String perBucketKey(String key, String bucket) {
    for (String prefix : new String[] {StoreConstants.S3A_PREFIX, StoreConstants.PREFIX}) {
      if (key.startsWith(prefix)) {
        return prefix + StoreConstants.BUCKET_INFIX + bucket + "." + key.substring(prefix.length());
      }
    }
    return null;
  }

  /** The trimmed value, or {@code def} when unset or blank. */
  public String get(String key, String def) {
    String v = conf.getTrimmed(effectiveKey(key));
    return v == null || v.isEmpty() ? def : v;
  }

  /** The first of {@code keys} that is set (per-bucket forms first for each), else {@code def}. */
  public String getFirst(String def, String... keys) {
    for (String k : keys) {
      String v = get(k, null);
      if (v != null) {
        return v;
      }
    }
    return def;
  }

  public boolean getBoolean(String key, boolean def) {
    String v = get(key, null);
    if (v == null) {
      return def;
    }
    switch (v.toLowerCase(Locale.ROOT)) {
      case "true":
        return true;
      case "false":
        return false;
      default:
        throw bad(key, v, "true or false");
    }
  }

  public int getInt(String key, int def, int min, int max) {
    return (int) getLong(key, def, min, max);
  }

  public long getLong(String key, long def, long min, long max) {
    String v = get(key, null);
    if (v == null) {
      return def;
    }
    long n;
    try {
      n = Long.parseLong(v);
    } catch (NumberFormatException e) {
      throw bad(key, v, "an integer");
    }
    if (n < min || n > max) {
      throw bad(key, v, "an integer from " + min + " to " + max);
    }
    return n;
  }

  /**
   * A comma-separated list, each entry trimmed, empty entries dropped; {@code def} when the key is unset or blank.
   * The result is unmodifiable.
   */
  public List<String> getList(String key, List<String> def) {
    String v = get(key, null);
    if (v == null) {
      return def;
    }
    List<String> out = new ArrayList<>();
    for (String s : v.split(",")) {
      String t = s.trim();
      if (!t.isEmpty()) {
        out.add(t);
      }
    }
    return out.isEmpty() ? def : Collections.unmodifiableList(out);
  }

  /**
   * One constant of {@code type}, written case-insensitively with '-' or '_' between words ({@code abort-task}
   * for {@code ABORT_TASK}); {@code def} when unset or blank. A bad value fails naming the key and the choices.
   */
  public <E extends Enum<E>> E getEnum(String key, Class<E> type, E def) {
    String v = get(key, null);
    if (v == null) {
      return def;
    }
    String wanted = v.replace('-', '_');
    for (E e : type.getEnumConstants()) {
      if (e.name().equalsIgnoreCase(wanted)) {
        return e;
      }
    }
    List<String> names = new ArrayList<>();
    for (E e : type.getEnumConstants()) {
      names.add(enumValue(e));
    }
    throw bad(key, v, "one of " + String.join(", ", names));
  }

  /** How an enum constant is written in the configuration: lower case, '-' between words. */
  public static String enumValue(Enum<?> e) {
    return e.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** A duration in milliseconds: plain milliseconds, or with a unit (ns, us, ms, s, m, h, d). */
  public long getDurationMs(String key, long defMs, long minMs) {
    return getParsed(key, defMs, minMs, ConfigReader::parseDurationMs, "a duration", "500, 500ms, 5s or 2m", "ms");
  }

  /** A size in bytes: plain bytes, or with a binary suffix (K, M, G, T; case-insensitive). */
  public long getBytes(String key, long def, long min) {
    return getParsed(key, def, min, ConfigReader::parseBytes, "a size", "67108864, 64M or 1G", "bytes");
  }

  /** A quantity written with a unit; {@code parser} throws IllegalArgumentException on what it cannot read. */
  private long getParsed(String key, long def, long min, ToLongFunction<String> parser, String what,
      String examples, String unit) {
    String v = get(key, null);
    if (v == null) {
      return def;
    }
    long n;
    try {
      n = parser.applyAsLong(v);
    } catch (IllegalArgumentException | ArithmeticException e) {
      throw bad(key, v, what + " such as " + examples);
    }
    if (n < min) {
      throw bad(key, v, what + " of at least " + min + " " + unit);
    }
    return n;
  }

  /**
   * A secret (never echoed in errors), read through Hadoop credential providers first, then the configuration;
   * the per-bucket key wins wherever it is found (a per-bucket secret may live only in a credential store).
   * Null when unset or blank.
   */
  public String getSecret(String key) throws IOException {
    String k = effectiveSecretKey(key);
    return k == null ? null : password(k);
  }

  /** The key a secret of {@code key} is read from (its per-bucket form when set anywhere), or null when unset. */
  public String effectiveSecretKey(String key) throws IOException {
    String perBucket = perBucketKey(key, bucket);
    if (perBucket != null && password(perBucket) != null) {
      return perBucket;
    }
    return password(key) != null ? key : null;
  }

  private String password(String key) throws IOException {
    char[] p = conf.getPassword(key);
    if (p == null) {
      return null;
    }
    String s = new String(p).trim();
    return s.isEmpty() ? null : s;
  }

  /** One of {@code allowed} (case-insensitive), returned as written in {@code allowed}. */
  public String getChoice(String key, String def, String... allowed) {
    String v = get(key, def);
    for (String a : allowed) {
      if (a.equalsIgnoreCase(v)) {
        return a;
      }
    }
    throw bad(key, v, "one of " + String.join(", ", allowed));
  }

  /**
   * An {@link IllegalArgumentException} for a bad value of {@code key}, naming the key in force, the value and
   * what was expected: for checks this class cannot make (a combination of keys, a value out of another range).
   */
  public IllegalArgumentException bad(String key, String value, String expected) {
    return new IllegalArgumentException("Invalid value '" + value + "' of " + effectiveKey(key) + ": expected "
        + expected);
  }

  /** Parses a duration such as {@code 500}, {@code 500ms}, {@code 5s}, {@code 2m}, {@code 1h} into milliseconds. */
  public static long parseDuration(String v) {
    return parseDurationMs(v);
  }

  public static long parseDurationMs(String v) {
    String s = v.trim().toLowerCase(Locale.ROOT);
    int i = 0;
    while (i < s.length() && (Character.isDigit(s.charAt(i)))) {
      i++;
    }
    if (i == 0) {
      throw new IllegalArgumentException(v);
    }
    long n = Long.parseLong(s.substring(0, i));
    String unit = s.substring(i).trim();
    switch (unit) {
      case "":
      case "ms":
        return n;
      case "ns":
        return TimeUnit.NANOSECONDS.toMillis(n);
      case "us":
        return TimeUnit.MICROSECONDS.toMillis(n);
      case "s":
        return TimeUnit.SECONDS.toMillis(n);
      case "m":
        return TimeUnit.MINUTES.toMillis(n);
      case "h":
        return TimeUnit.HOURS.toMillis(n);
      case "d":
        return TimeUnit.DAYS.toMillis(n);
      default:
        throw new IllegalArgumentException(v);
    }
  }

  public static long parseBytes(String v) {
    String s = v.trim().toUpperCase(Locale.ROOT);
    if (s.endsWith("B")) {
      s = s.substring(0, s.length() - 1);
    }
    long mult = 1;
    if (!s.isEmpty()) {
      switch (s.charAt(s.length() - 1)) {
        case 'K': mult = 1L << 10; break;
        case 'M': mult = 1L << 20; break;
        case 'G': mult = 1L << 30; break;
        case 'T': mult = 1L << 40; break;
        default: mult = 1;
      }
    }
    if (mult != 1) {
      s = s.substring(0, s.length() - 1).trim();
    }
    long n = Long.parseLong(s);
    if (n < 0) {
      throw new IllegalArgumentException(v);
    }
    return Math.multiplyExact(n, mult);
  }
}
