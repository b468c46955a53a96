package io.objectcommit.codecs.impl;

import io.objectcommit.codecs.CodecConstants;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;

/** The codecs' settings, parsed once from a Hadoop configuration; a bad value fails naming its key. */
public final class CodecOptions {

  /** The defaults, for a codec Hadoop has not configured (yet). */
  public static final CodecOptions DEFAULTS =
      new CodecOptions(CodecConstants.BGZF_CLAIM_GZ_DEFAULT, CodecConstants.BGZF_LEVEL_DEFAULT);

  private final boolean claimGz;
  private final int level;

  private CodecOptions(boolean claimGz, int level) {
    this.claimGz = claimGz;
    this.level = level;
  }

  public static CodecOptions from(Configuration conf) {
    if (conf == null) {
      return DEFAULTS;
    }
    return new CodecOptions(
        bool(conf, CodecConstants.BGZF_CLAIM_GZ, CodecConstants.BGZF_CLAIM_GZ_DEFAULT),
        integer(conf, CodecConstants.BGZF_LEVEL, CodecConstants.BGZF_LEVEL_DEFAULT, 0, 9));
  }

  /** Whether the BGZF codec takes the {@code .gz} extension. */
  public boolean claimGz() {
    return claimGz;
  }

  /** The deflate level of written blocks. */
  public int level() {
    return level;
  }

  private static boolean bool(Configuration conf, String key, boolean def) {
    String v = conf.getTrimmed(key);
    if (v == null || v.isEmpty()) {
      return def;
    }
    switch (v.toLowerCase(Locale.ROOT)) {
      case "true":
        return true;
      case "false":
        return false;
      default:
        throw new IllegalArgumentException("bad value of " + key + ": '" + v + "' (expected true or false)");
    }
  }

  private static int integer(Configuration conf, String key, int def, int min, int max) {
    String v = conf.getTrimmed(key);
    if (v == null || v.isEmpty()) {
      return def;
    }
    int n;
    try {
      n = Integer.parseInt(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("bad value of " + key + ": '" + v + "' (expected an integer from " + min
          + " to " + max + ")", e);
    }
    if (n < min || n > max) {
      throw new IllegalArgumentException("bad value of " + key + ": '" + v + "' (expected an integer from " + min
          + " to " + max + ")");
    }
    return n;
  }
}
