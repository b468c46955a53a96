package io.objectcommit.codecs.files;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.objectcommit.store.files.JsonRecord;
import io.objectcommit.store.files.JsonRecordCodec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * The index of a plain gzip file: where a reader can start decoding in the middle of it. Each checkpoint is the start
 * of a gzip member (a byte) or of a deflate block (a bit), with the number of bytes decoded before it and, for a
 * block, the 32 KiB window before it (deflated, base64). The index names the file's length and, where the store
 * has one, its ETag: an index is used only for the object it was built from.
 */
public final class GzipIndex extends JsonRecord {

  /** The record type: {@value}. */
  public static final String TYPE = "objectcommit/codecs/gzip-index";
  /** The version this code writes: {@value}. */
  public static final int VERSION = 1;
  /** Compact JSON. */
  public static final JsonRecordCodec<GzipIndex> CODEC = new JsonRecordCodec<>(GzipIndex.class, TYPE, VERSION,
      VERSION, false);

  /** The window a checkpoint inside a member carries at most. */
  public static final int MAX_WINDOW = 32 * 1024;

  /** One place to start decoding. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonIgnoreProperties(ignoreUnknown = true)
  public static final class Checkpoint {
    /** Where it is in the compressed file, in bits (a member start: a multiple of 8). */
    @JsonProperty("bit")
    public long bit;
    /** Bytes decoded before it. */
    @JsonProperty("out")
    public long out;
    /** True at the start of a gzip member (its header); false at a deflate block inside one. */
    @JsonProperty("member")
    public boolean member;
    /** A block's window: the bytes decoded just before it within its member, raw deflate, base64. */
    @JsonProperty("window")
    public String window;
    /** The window's length before compression. */
    @JsonProperty("windowLength")
    public int windowLength;
    /**
     * The CRC-32 of the bytes decoded from this checkpoint to the next (to the end, for the last): a reader checks
     * each unit before handing out a byte of it, so an index never yields bytes of another file.
     */
    @JsonProperty("crc")
    public long crc;

    /** The byte in which the checkpoint starts. */
    public long byteOffset() {
      return bit >>> 3;
    }
  }

  /** The gzip file's length in bytes. */
  @JsonProperty("length")
  public long length;
  /** The gzip file's ETag where it is an object of a store; absent for a local file. */
  @JsonProperty("etag")
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public String etag;
  /** Bytes the whole file decodes to. */
  @JsonProperty("uncompressedLength")
  public long uncompressedLength;
  /** The decoded bytes aimed at between checkpoints. */
  @JsonProperty("spacing")
  public long spacing;
  /** In file order; the first is the first member's start. */
  @JsonProperty("checkpoints")
  public List<Checkpoint> checkpoints = new ArrayList<>();

  public GzipIndex() {
    super(TYPE, VERSION);
  }

  @Override
  public void validate() {
    check(length > 0, "gzip index: length " + length);
    check(uncompressedLength >= 0, "gzip index: uncompressed length " + uncompressedLength);
    check(checkpoints != null && !checkpoints.isEmpty(), "gzip index: no checkpoint");
    Checkpoint first = checkpoints.get(0);
    check(first.bit == 0 && first.out == 0 && first.member, "gzip index: the first checkpoint is not the file's start");
    Checkpoint previous = null;
    for (Checkpoint c : checkpoints) {
      check(c.byteOffset() < length && c.out <= uncompressedLength, "gzip index: checkpoint at bit " + c.bit
          + " beyond the file");
      if (previous != null) {
        check(c.byteOffset() > previous.byteOffset() && c.out > previous.out, "gzip index: checkpoints out of order"
            + " at bit " + c.bit);
      }
      if (c.member) {
        check(c.bit % 8 == 0 && c.window == null, "gzip index: member start at bit " + c.bit);
      } else {
        check(c.window != null && c.windowLength >= 0 && c.windowLength <= MAX_WINDOW, "gzip index: block at bit "
            + c.bit + " without a window");
        try {
          Base64.getDecoder().decode(c.window);
        } catch (IllegalArgumentException e) {
          throw new IllegalStateException("gzip index: block at bit " + c.bit + ": window not base64", e);
        }
      }
      previous = c;
    }
  }
}
