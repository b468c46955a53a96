package io.objectcommit.staging.files;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.ArrayList;
import java.util.List;

/**
 * One file of a task: its path relative to the destination and its length, and either an incomplete multipart upload
 * (its upload id and the ETags of its parts, part numbers 1..n in order) or, for a small file, its bytes (record
 * version 2, {@code data}, base64 in JSON). Everything job commit needs to complete the upload or write the file,
 * and job abort to abort it.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public final class PendingFile {

  @JsonProperty("path")
  public String path;

  @JsonProperty("uploadId")
  public String uploadId;

  @JsonProperty("length")
  public long length;

  @JsonProperty("etags")
  public List<String> etags = new ArrayList<>();

  /** The file's bytes when the record carries it (no upload then); absent otherwise. */
  @JsonProperty("data")
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public byte[] data;

  public PendingFile() {
  }

  public PendingFile(String path, String uploadId, long length, List<String> etags) {
    this.path = path;
    this.uploadId = uploadId;
    this.length = length;
    this.etags = new ArrayList<>(etags);
  }

  /** A small file carried in the task record: job commit writes it with one PUT. */
  public static PendingFile inline(String path, byte[] data) {
    PendingFile f = new PendingFile();
    f.path = path;
    f.length = data.length;
    f.data = data;
    return f;
  }

  /** Whether the record carries the file's bytes (no pending upload). */
  public boolean inline() {
    return data != null;
  }

  /** The partition directory of the file ({@code ""} for a file directly in the destination). */
  public String partition() {
    int slash = path.lastIndexOf('/');
    return slash < 0 ? "" : path.substring(0, slash);
  }

  void validate(String where) {
    check(path != null && !path.isEmpty(), where + ": a file without a path");
    check(!path.startsWith("/") && !path.endsWith("/"), where + ": bad relative path " + path);
    for (String segment : path.split("/", -1)) {
      check(!segment.isEmpty() && !segment.equals(".") && !segment.equals(".."),
          where + ": bad relative path " + path);
    }
    check(length >= 0, where + ": " + path + " has a negative length");
    if (data != null) {
      check(uploadId == null && (etags == null || etags.isEmpty()), where + ": " + path
          + " has both its bytes and an upload");
      check(data.length == length, where + ": " + path + " says " + length + " bytes and carries " + data.length);
      return;
    }
    check(uploadId != null && !uploadId.isEmpty(), where + ": " + path + " has no upload id");
    check(etags != null && !etags.isEmpty() && etags.size() <= 10_000, where + ": " + path
        + " has " + (etags == null ? 0 : etags.size()) + " parts");
    for (String e : etags) {
      check(e != null && !e.isEmpty(), where + ": " + path + " has a part without ETag");
    }
  }

  private static void check(boolean condition, String message) {
    if (!condition) {
      throw new IllegalStateException(message);
    }
  }

  @Override
  public String toString() {
    if (data != null) {
      return path + " (" + length + " bytes, in the record)";
    }
    return path + " (" + length + " bytes, " + etags.size() + " parts, upload " + uploadId + ")";
  }
}
