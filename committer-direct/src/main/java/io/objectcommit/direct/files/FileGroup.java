package io.objectcommit.direct.files;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The keys an attempt declares before it uploads them. Spark names the files of one task in one directory
 * {@code <stem>-c000<ext>}, {@code <stem>-c001<ext>}, ... (a new one each time {@code maxRecordsPerFile} rolls
 * over), so one group covers them all: its keys are {@code stem + "-c" + %03d + ext}, numbered from 0 without
 * gaps. A key without such a counter is a group of its own ({@link #isExact()}).
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public final class FileGroup {

  private static final Pattern COUNTED = Pattern.compile("^(.*/)?([^/]+)-c(\\d{3,9})((\\.[^/]*)?)$");

  @JsonProperty("stem")
  private String stem;
  @JsonProperty("ext")
  private String ext;
  @JsonProperty("key")
  private String key;

  /** For Jackson. */
  public FileGroup() {
  }

  private FileGroup(String stem, String ext, String key) {
    this.stem = stem;
    this.ext = ext;
    this.key = key;
  }

  /** The group a key belongs to. */
  public static FileGroup of(String key) {
    Matcher m = COUNTED.matcher(key);
    if (m.matches()) {
      String dir = m.group(1) == null ? "" : m.group(1);
      return new FileGroup(dir + m.group(2), m.group(4), null);
    }
    return new FileGroup(null, null, key);
  }

  /** The counter of a key of this group, or -1 if it is not one of its keys. */
  public int counterOf(String k) {
    if (isExact()) {
      return key.equals(k) ? 0 : -1;
    }
    String head = stem + "-c";
    if (!k.startsWith(head) || !k.endsWith(ext)) {
      return -1;
    }
    String digits = k.substring(head.length(), k.length() - ext.length());
    if (digits.length() < 3 || !digits.chars().allMatch(Character::isDigit)) {
      return -1;
    }
    int n = Integer.parseInt(digits);
    return keyOf(n).equals(k) ? n : -1;
  }

  /** The n-th key of the group (the key itself for an exact group). */
  public String keyOf(int n) {
    return isExact() ? key : String.format("%s-c%03d%s", stem, n, ext);
  }

  @JsonIgnore
  public boolean isExact() {
    return key != null;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof FileGroup)) {
      return false;
    }
    FileGroup g = (FileGroup) o;
    return Objects.equals(stem, g.stem) && Objects.equals(ext, g.ext) && Objects.equals(key, g.key);
  }

  @Override
  public int hashCode() {
    return Objects.hash(stem, ext, key);
  }

  @Override
  public String toString() {
    return isExact() ? key : stem + "-c###" + ext;
  }
}
