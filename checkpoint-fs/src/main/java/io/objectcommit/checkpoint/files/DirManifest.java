package io.objectcommit.checkpoint.files;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.objectcommit.store.files.JsonRecord;
import io.objectcommit.store.files.JsonRecordCodec;
import java.util.Base64;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The persisted listing of one logical directory of the checkpoint namespace (S3 backend). It lives at
 * {@code <prefix>.ckpt/dirs/<dirId>.json} and is only ever replaced by a conditional write (create-if-absent for a
 * new directory, If-Match for a change), so each namespace change is one atomic write of one small object.
 *
 * <p>Entries map a child name to a file (the immutable data object holding its bytes, or since version 2 the bytes
 * themselves, base64 in {@code inline}, for a small file; size, time) or a directory (the id of the child's own
 * manifest). The id, not the path, names a directory's manifest: renaming a directory
 * moves one entry; a manifest left behind by a crash has an id no live entry points to, so it is never read.
 */
public final class DirManifest extends JsonRecord {

  /** The record type: {@value}. */
  public static final String TYPE = "objectcommit/checkpoint/dir-manifest";
  /** The version this code writes: {@value}. Version 1 (no inline files) is still read. */
  public static final int VERSION = 2;
  /** Compact JSON: manifests of large directories are rewritten at every change. */
  public static final JsonRecordCodec<DirManifest> CODEC = new JsonRecordCodec<>(DirManifest.class, TYPE, 1, VERSION,
      false);

  /** The id of the root directory's manifest. */
  public static final String ROOT_ID = "root";

  /** One child. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonIgnoreProperties(ignoreUnknown = true)
  public static final class Entry {
    /** {@code file} or {@code dir}. */
    @JsonProperty("kind")
    public String kind;
    /** Files: the data object's key; absent when the bytes are {@link #inline}. */
    @JsonProperty("data")
    public String data;
    /** Small files (version 2): the file's bytes, base64; absent when they are in a data object. */
    @JsonProperty("inline")
    public String inline;
    /** Files: size in bytes. */
    @JsonProperty("size")
    public Long size;
    /** Modification time, ms since the epoch. */
    @JsonProperty("mtime")
    public long mtime;
    /** Directories: the id of the child's manifest. */
    @JsonProperty("id")
    public String id;
    /**
     * Adopted files only ({@code objectcommit checkpoint import}): the ETag the data object had when it was adopted,
     * which verify compares, since an adopted object is not immutable by construction (its old owner may still
     * change or delete it). Absent for files this file system wrote.
     */
    @JsonProperty("etag")
    public String etag;

    public Entry() {
    }

    public static Entry file(String data, long size, long mtime) {
      Entry e = new Entry();
      e.kind = "file";
      e.data = data;
      e.size = size;
      e.mtime = mtime;
      return e;
    }

    public static Entry dir(String id, long mtime) {
      Entry e = new Entry();
      e.kind = "dir";
      e.id = id;
      e.mtime = mtime;
      return e;
    }

    /** A small file whose bytes are kept in the manifest itself. */
    public static Entry inlineFile(byte[] bytes, long mtime) {
      Entry e = new Entry();
      e.kind = "file";
      e.inline = Base64.getEncoder().encodeToString(bytes);
      e.size = (long) bytes.length;
      e.mtime = mtime;
      return e;
    }

    /** A file adopted from an existing checkpoint: its data object is the old file's own object. */
    public static Entry adopted(String data, long size, long mtime, String etag) {
      Entry e = file(data, size, mtime);
      e.etag = etag;
      return e;
    }

    @JsonIgnore
    public boolean isDir() {
      return "dir".equals(kind);
    }

    /** A file whose bytes are in the manifest, not in a data object. */
    @JsonIgnore
    public boolean isInline() {
      return inline != null;
    }

    /** The bytes of an inline file. */
    public byte[] inlineBytes() {
      return Base64.getDecoder().decode(inline);
    }

    /** How many bytes of file content this entry holds in the manifest (0 unless inline). */
    @JsonIgnore
    public long inlineSize() {
      return isInline() ? size : 0;
    }

    @Override
    public boolean equals(Object o) {
      if (!(o instanceof Entry)) {
        return false;
      }
      Entry x = (Entry) o;
      return Objects.equals(kind, x.kind) && Objects.equals(data, x.data)
          && Objects.equals(size, x.size) && mtime == x.mtime && Objects.equals(id, x.id)
          && Objects.equals(etag, x.etag) && Objects.equals(inline, x.inline);
    }

    @Override
    public int hashCode() {
      return Objects.hash(kind, data, size, id);
    }

    public Entry copy() {
      Entry e = new Entry();
      e.kind = kind;
      e.data = data;
      e.size = size;
      e.mtime = mtime;
      e.id = id;
      e.etag = etag;
      e.inline = inline;
      return e;
    }
  }

  /**
   * The owner of a checkpoint location that last wrote this manifest (fencing, docs/checkpoint-format.md#fencing):
   * the location's path, the owner's epoch there and the id its caller gave. Absent on manifests that no fenced
   * writer has written. Optional within versions 1 and 2: readers ignore fields they do not know. Immutable.
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonIgnoreProperties(ignoreUnknown = true)
  public static final class Owner {
    /** The checkpoint location (a logical path such as {@code /q}) whose owner this is. */
    @JsonProperty("location")
    public final String location;
    /** The owner's epoch: raised by one at every takeover of the location. */
    @JsonProperty("epoch")
    public final long epoch;
    /** Who took ownership (an application or query run id, a host and pid: what the caller gave). */
    @JsonProperty("id")
    public final String id;

    @JsonCreator
    public Owner(@JsonProperty("location") String location, @JsonProperty("epoch") long epoch,
        @JsonProperty("id") String id) {
      this.location = location;
      this.epoch = epoch;
      this.id = id;
    }

    @Override
    public boolean equals(Object o) {
      if (!(o instanceof Owner)) {
        return false;
      }
      Owner x = (Owner) o;
      return epoch == x.epoch && Objects.equals(location, x.location) && Objects.equals(id, x.id);
    }

    @Override
    public int hashCode() {
      return Objects.hash(location, epoch, id);
    }

    @Override
    public String toString() {
      return "owner '" + id + "' (epoch " + epoch + " of " + location + ")";
    }
  }

  /** This directory's id (the key of its manifest). */
  @JsonProperty("dirId")
  public String dirId;

  /** The logical path this directory was created at (for people reading the bucket; not used for lookups). */
  @JsonProperty("createdAs")
  public String createdAs;

  /** The fenced writer that last wrote this manifest; null when none has. */
  @JsonProperty("owner")
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public Owner owner;

  /** Children by name, sorted. */
  @JsonProperty("entries")
  public TreeMap<String, Entry> entries = new TreeMap<>();

  public DirManifest() {
    super(TYPE, VERSION);
  }

  public static DirManifest empty(String dirId, String createdAs) {
    DirManifest m = new DirManifest();
    m.dirId = dirId;
    m.createdAs = createdAs;
    return m;
  }

  /** A deep copy, to change without touching a cached instance. */
  public DirManifest copy() {
    DirManifest m = empty(dirId, createdAs);
    m.owner = owner; // immutable: shared; a writer that knows no epoch keeps the last owner's stamp
    for (Map.Entry<String, Entry> e : entries.entrySet()) {
      m.entries.put(e.getKey(), e.getValue().copy());
    }
    return m;
  }

  /** The bytes of files held inside this manifest. */
  public long inlineBytes() {
    long n = 0;
    for (Entry e : entries.values()) {
      n += e.inlineSize();
    }
    return n;
  }

  /** The length of what a base64 text decodes to, without decoding it (-1 if it is not base64's length). */
  private static long decodedLength(String base64) {
    int n = base64.length();
    if (n % 4 != 0) {
      return -1;
    }
    int pad = n == 0 ? 0 : base64.charAt(n - 1) != '=' ? 0 : base64.charAt(n - 2) == '=' ? 2 : 1;
    return n / 4 * 3L - pad;
  }

  @Override
  public void validate() {
    check(dirId != null && !dirId.isEmpty(), "no dirId");
    check(entries != null, "no entries");
    check(owner == null || (owner.epoch >= 1 && owner.location != null && !owner.location.isEmpty()
        && owner.id != null), "bad owner " + owner);
    for (Map.Entry<String, Entry> e : entries.entrySet()) {
      String name = e.getKey();
      Entry v = e.getValue();
      check(!name.isEmpty() && name.indexOf('/') < 0 && !".".equals(name) && !"..".equals(name),
          "bad entry name '" + name + "'");
      check(v != null && ("file".equals(v.kind) || "dir".equals(v.kind)), "entry '" + name + "' has no valid kind");
      if (v.isDir()) {
        check(v.id != null && !v.id.isEmpty(), "directory entry '" + name + "' has no id");
      } else {
        check(v.size != null && v.size >= 0, "file entry '" + name + "' has no size");
        if (v.isInline()) {
          check(v.data == null && v.etag == null, "file entry '" + name + "' is inline and has a data object");
          check(getVersion() >= 2, "file entry '" + name + "' is inline in a manifest of version " + getVersion());
          check(decodedLength(v.inline) == v.size, "inline file entry '" + name + "' holds "
              + decodedLength(v.inline) + " bytes, its size says " + v.size);
        } else {
          check(v.data != null && !v.data.isEmpty(), "file entry '" + name + "' has no data object");
        }
      }
    }
  }
}
