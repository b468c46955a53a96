package io.objectcommit.store.testing;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Comparator;
import java.util.List;

/**
 * What S3 computes: ETags (hex MD5 of a single PUT's bytes; for a multipart object the hex MD5 of the parts'
 * binary MD5s, then "-" and the number of parts) and the order of keys (by UTF-8 bytes, i.e. by code point).
 */
public final class S3Etags {

  /** Keys in S3's listing order: UTF-8 byte order, which is code point order (not Java's UTF-16 order). */
  public static final Comparator<String> KEY_ORDER = S3Etags::compareKeys;

  private S3Etags() {
  }

  /** The ETag (without quotes) of an object written by one PUT of these bytes. */
  public static String ofBytes(byte[] data) {
    return hex(md5().digest(data));
  }

  /** The ETag (without quotes) of an object completed from parts with these ETags, in part order. */
  public static String ofParts(List<String> partEtags) {
    MessageDigest md5 = md5();
    for (String e : partEtags) {
      md5.update(unhex(e));
    }
    return hex(md5.digest()) + "-" + partEtags.size();
  }

  private static MessageDigest md5() {
    try {
      return MessageDigest.getInstance("MD5");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("MD5 is missing from this JVM", e);
    }
  }

  private static String hex(byte[] b) {
    StringBuilder s = new StringBuilder(b.length * 2);
    for (byte x : b) {
      s.append(Character.forDigit((x >> 4) & 0xf, 16)).append(Character.forDigit(x & 0xf, 16));
    }
    return s.toString();
  }

  private static byte[] unhex(String hex) {
    byte[] out = new byte[hex.length() / 2];
    for (int i = 0; i < out.length; i++) {
      out[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
    }
    return out;
  }

  private static int compareKeys(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int ca = a.codePointAt(i);
      int cb = b.codePointAt(j);
      if (ca != cb) {
        return Integer.compare(ca, cb);
      }
      i += Character.charCount(ca);
      j += Character.charCount(cb);
    }
    return Integer.compare(a.length() - i, b.length() - j);
  }
}
