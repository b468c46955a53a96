package io.objectcommit.store.impl;

import io.objectcommit.store.UploadedPart;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The ETag S3 gives an object completed from given parts: hex MD5 of the concatenated binary MD5s of the parts,
 * then "-" and the number of parts. Only defined when each part's ETag is its MD5 (not with SSE-KMS or SSE-C).
 */
final class MultipartEtag {

  private static final Pattern MD5_HEX = Pattern.compile("[0-9a-fA-F]{32}");

  private MultipartEtag() {
  }

  /** The expected ETag, or null when a part's ETag is not an MD5. */
  static String of(List<UploadedPart> partsInOrder) {
    MessageDigest md5;
    try {
      md5 = MessageDigest.getInstance("MD5");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("MD5 is missing from this JVM", e);
    }
    for (UploadedPart p : partsInOrder) {
      if (!MD5_HEX.matcher(p.etag()).matches()) {
        return null;
      }
      md5.update(hexToBytes(p.etag()));
    }
    StringBuilder b = new StringBuilder();
    for (byte x : md5.digest()) {
      b.append(String.format("%02x", x));
    }
    return b.append('-').append(partsInOrder.size()).toString();
  }

  private static byte[] hexToBytes(String hex) {
    byte[] out = new byte[hex.length() / 2];
    for (int i = 0; i < out.length; i++) {
      out[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
    }
    return out;
  }
}
