package io.objectcommit.staging.files;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.ArrayList;
import java.util.List;

/**
 * One file of a task, uploaded as an incomplete multipart upload: its path relative to the destination, the
 * upload id, its length and the ETags of its parts (part numbers 1..n in order). Everything job commit needs to
 * complete the upload, or job abort to abort it.
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

  public PendingFile() {
  }

  public PendingFile(String path, String uploadId, long length, List<String> etags) {
    this.path = path;
    this.uploadId = uploadId;
    this.length = length;
    this.etags = new ArrayList<>(etags);
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
    check(uploadId != null && !uploadId.isEmpty(), where + ": " + path + " has no upload id");
    check(length >= 0, where + ": " + path + " has a negative length");
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
    return path + " (" + length + " bytes, " + etags.size() + " parts, upload " + uploadId + ")";
  }
}
