package io.objectcommit.readcache.impl;

import io.objectcommit.readcache.ObjectIdentity;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.zip.CRC32C;

/**
 * The block file: a header naming the block (object identity, block size, index) and a CRC32C, then the payload.
 *
 * <pre>
 *   int    magic 0x4F43424B ("OCBK")
 *   byte   format version (1)
 *   int    block size      long block index     long object length
 *   UTF    bucket          UTF  key             UTF  ETag          (DataOutput's modified UTF-8)
 *   int    payload length
 *   int    CRC32C of every byte above and of the payload
 *   ...    payload
 * </pre>
 *
 * The checksum covers the header too, so a flipped bit anywhere is found; the identity inside is compared with the
 * one asked for, so a hash collision of file names could never serve another object's bytes. A file that fails
 * either check is never served.
 */
public final class BlockFormat {

  static final int MAGIC = 0x4F43424B;
  static final byte VERSION = 1;
  /** Bound of a header: three strings of at most 64 KiB (S3 keys are at most 1,024 bytes) and the fixed fields. */
  static final int MAX_HEADER = 3 * (65535 + 2) + 64;

  private BlockFormat() {
  }

  /** The file name of a block (hex SHA-256 of its identity, block size and index) without its suffix. */
  public static String name(ObjectIdentity id, int blockSize, long index) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      sha.update(header(id, blockSize, index, 0));
      StringBuilder hex = new StringBuilder(64);
      for (byte b : sha.digest()) {
        hex.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
      }
      return hex.toString();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  /**
   * Where the payload of a block file starts, or -1 with the reason in {@code why[0]} when the file is not exactly
   * the block asked for (corrupt, truncated, another identity or block size). Reads {@code file} by absolute
   * positions (a mapped file: the checksum is computed where the bytes lie).
   */
  public static int check(ByteBuffer file, ObjectIdentity id, int blockSize, long index, int expectedLength,
      String[] why) {
    byte[] header = header(id, blockSize, index, expectedLength);
    if (file.capacity() != header.length + 4 + expectedLength) {
      why[0] = "length " + file.capacity() + ", expected " + (header.length + 4 + expectedLength);
      return -1;
    }
    for (int i = 0; i < header.length; i++) {
      if (file.get(i) != header[i]) {
        why[0] = "its header differs from the block's identity at byte " + i;
        return -1;
      }
    }
    int payloadAt = header.length + 4;
    CRC32C crc = new CRC32C();
    crc.update(header);
    ByteBuffer payload = file.duplicate();
    payload.position(payloadAt);
    payload.limit(payloadAt + expectedLength);
    crc.update(payload);
    if (file.getInt(header.length) != (int) crc.getValue()) {
      why[0] = "CRC32C mismatch";
      return -1;
    }
    return payloadAt;
  }

  /** The largest file a block of {@code blockSize} can be (a bigger file is refused before it is read). */
  public static long maxFileSize(int blockSize) {
    return (long) MAX_HEADER + 4 + blockSize;
  }

  /** The header of a block file (everything before the checksum). */
  static byte[] header(ObjectIdentity id, int blockSize, long index, int payloadLength) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(128 + id.key().length());
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeInt(MAGIC);
      out.writeByte(VERSION);
      out.writeInt(blockSize);
      out.writeLong(index);
      out.writeLong(id.length());
      out.writeUTF(id.bucket());
      out.writeUTF(id.key());
      out.writeUTF(id.etag());
      out.writeInt(payloadLength);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // never: in memory
    }
    return bytes.toByteArray();
  }
}
