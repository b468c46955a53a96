package io.objectcommit.codecs;

import io.objectcommit.codecs.RecompressionResult.Outcome;
import io.objectcommit.codecs.impl.CodecOptions;
import io.objectcommit.codecs.impl.ResumingInput;
import io.objectcommit.codecs.impl.SourceFormat;
import io.objectcommit.codecs.impl.StoreUpload;
import io.objectcommit.codecs.impl.Transcoder;
import io.objectcommit.store.ObjectChangedException;
import io.objectcommit.store.ObjectInfo;
import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.WriteCondition;
import java.io.BufferedInputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Locale;
import java.util.Objects;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns an existing gzip (one member or several) or bzip2 object into BGZF or seekable zstd, streaming: one GET of
 * the source, the target written in parts ({@link CodecConstants#RECOMPRESS_PART_SIZE}), memory bounded by one part
 * whatever the object's size (docs/user-guide.md, "Recompressing existing files").
 *
 * <p>Targets: BGZF beside the source as {@code <base>.bgz}, or with {@link Options#inPlace()} over a gzip source
 * under its own name (BGZF is gzip), written with {@code If-Match} on the ETag read so that an overwrite made
 * meanwhile is never lost ({@link SourceChangedException}); seekable zstd beside as {@code <base>.seekable.zst}.
 * {@code <base>} is the name without {@code .gz}, {@code .gzip} or {@code .bz2}. A target that exists is refused
 * (the write is {@code If-None-Match: *}) unless {@link Options#overwrite()}. The source is kept unless
 * {@link Options#deleteSource()} (then deleted with {@code If-Match} on the ETag read, after the target is written).
 */
public final class Recompression {

  private static final Logger LOG = LoggerFactory.getLogger(Recompression.class);

  private Recompression() {
  }

  /** The formats written. */
  public enum Format {
    BGZF(CodecConstants.BGZF_EXTENSION),
    ZSTD(CodecConstants.ZSTD_EXTENSION);

    private final String extension;

    Format(String extension) {
      this.extension = extension;
    }

    /** The extension of a target written beside its source. */
    public String extension() {
      return extension;
    }

    /** {@code bgzf} or {@code zstd}, as the command's {@code --to} takes them. */
    public static Format parse(String name) {
      switch (name.toLowerCase(Locale.ROOT)) {
        case "bgzf":
          return BGZF;
        case "zstd":
          return ZSTD;
        default:
          throw new IllegalArgumentException("--to " + name + ": expected bgzf or zstd");
      }
    }
  }

  /** What to do; immutable. */
  public static final class Options {
    private final Format format;
    private final boolean inPlace;
    private final boolean overwrite;
    private final boolean deleteSource;
    private final boolean dryRun;

    private Options(Format format, boolean inPlace, boolean overwrite, boolean deleteSource, boolean dryRun) {
      this.format = Objects.requireNonNull(format, "format");
      this.inPlace = inPlace;
      this.overwrite = overwrite;
      this.deleteSource = deleteSource;
      this.dryRun = dryRun;
      if (inPlace && format != Format.BGZF) {
        throw new IllegalArgumentException("--in-place: only BGZF (--to bgzf) can replace a gzip source under its"
            + " name");
      }
      if (inPlace && deleteSource) {
        throw new IllegalArgumentException("--in-place and --delete-source: in place, the source is replaced");
      }
    }

    /** Recompress to {@code format} beside the source, keeping it, refusing an existing target. */
    public static Options to(Format format) {
      return new Options(format, false, false, false, false);
    }

    public Options inPlace(boolean on) {
      return new Options(format, on, overwrite, deleteSource, dryRun);
    }

    public Options overwrite(boolean on) {
      return new Options(format, inPlace, on, deleteSource, dryRun);
    }

    public Options deleteSource(boolean on) {
      return new Options(format, inPlace, overwrite, on, dryRun);
    }

    public Options dryRun(boolean on) {
      return new Options(format, inPlace, overwrite, deleteSource, on);
    }

    public Format format() {
      return format;
    }

    public boolean inPlace() {
      return inPlace;
    }

    public boolean overwrite() {
      return overwrite;
    }

    public boolean deleteSource() {
      return deleteSource;
    }

    public boolean dryRun() {
      return dryRun;
    }
  }

  /**
   * The name of the target of {@code name} (a key or a file name): itself in place, else the name without its
   * {@code .gz}, {@code .gzip} or {@code .bz2} and with the format's extension.
   */
  public static String targetName(String name, Options options) {
    if (options.inPlace()) {
      return name;
    }
    String lower = name.toLowerCase(Locale.ROOT);
    String base = name;
    for (String ext : new String[] {".gz", ".gzip", ".bz2"}) {
      if (lower.endsWith(ext) && lower.length() > ext.length()) {
        base = name.substring(0, name.length() - ext.length());
        break;
      }
    }
    return base + options.format().extension();
  }

  /**
   * Recompresses the object at {@code key}. Requests: HEAD of the source, one GET of it (pinned to the ETag the
   * HEAD saw; a broken read goes on with a ranged GET from where it stopped, pinned to the same ETag), HEAD of a
   * target beside it, the write (a PUT, or a multipart upload above one part; conditional as the class describes),
   * and a conditional DELETE of the source with {@link Options#deleteSource()}. A dry run reads only the source's
   * first bytes.
   *
   * @throws FileNotFoundException no object at {@code key}
   * @throws RecompressionException the object is not gzip or bzip2, or {@code --in-place} on bzip2
   * @throws SourceChangedException in place, the object changed while it was recompressed
   * @throws org.apache.hadoop.fs.FileAlreadyExistsException the target exists (not overwriting)
   */
  public static RecompressionResult recompress(ObjectStore store, String key, Options options, Configuration conf)
      throws IOException {
    CodecOptions codec = CodecOptions.from(conf);
    String path = store.pathOf(key);
    ObjectInfo source = store.head(key).orElseThrow(() -> new FileNotFoundException(path + ": recompress: no"
        + " such object"));
    if (source.size() == 0) {
      throw new RecompressionException(path, "recompress: an empty object is neither gzip nor bzip2");
    }
    String targetKey = targetName(key, options);
    String targetPath = store.pathOf(targetKey);
    long headEnd = options.dryRun() ? Math.min(source.size(), SourceFormat.HEADER_BYTES) : -1;
    InputStream object = store.open(key, 0, headEnd, source.etag());
    if (!options.dryRun()) {
      object = new ResumingInput(store, key, source.size(), source.etag(), object);
    }
    try (InputStream in = new BufferedInputStream(object, 64 * 1024)) {
      SourceFormat format = detect(in, path, options);
      if (format == SourceFormat.BGZF && options.format() == Format.BGZF) {
        LOG.info("{}: BGZF already, nothing to do", path);
        return new RecompressionResult(Outcome.ALREADY_BGZF, path, format.label(), path, true, source.size(), -1,
            -1, -1, -1, false);
      }
      boolean targetExists = options.inPlace() || store.head(targetKey).isPresent();
      if (options.dryRun()) {
        return new RecompressionResult(Outcome.DRY_RUN, path, format.label(), targetPath, targetExists,
            source.size(), -1, -1, -1, -1, false);
      }
      if (targetExists && !options.inPlace() && !options.overwrite()) {
        throw targetExists(targetPath);
      }
      WriteCondition condition = options.inPlace() ? WriteCondition.ifMatch(source.etag())
          : options.overwrite() ? WriteCondition.none() : WriteCondition.ifAbsent();
      StoreUpload upload = new StoreUpload(store, targetKey, codec.partSize());
      Transcoder.Totals totals;
      ObjectInfo written;
      try {
        totals = Transcoder.copy(format.decompress(in, conf), options.format(), codec, upload);
        written = upload.complete(condition);
      } catch (ObjectChangedException | FileNotFoundException e) {
        upload.abort();
        if (options.inPlace()) {
          throw new SourceChangedException(path, source.etag(), e);
        }
        throw e;
      } catch (org.apache.hadoop.fs.FileAlreadyExistsException e) {
        upload.abort();
        throw targetExists(targetPath);
      } catch (IOException | RuntimeException e) {
        upload.abort();
        throw e;
      }
      boolean deleted = false;
      if (options.deleteSource()) {
        store.delete(key, source.etag());
        deleted = true;
      }
      LOG.info("{}: recompressed to {} ({} -> {} bytes)", path, targetPath, source.size(), written.size());
      return new RecompressionResult(Outcome.RECOMPRESSED, path, format.label(), targetPath, targetExists,
          source.size(), totals.compressedBytes(), totals.uncompressedBytes(), totals.lines(), totals.crc32(),
          deleted);
    }
  }

  /**
   * Recompresses a local file: the target is written to a temporary file in the same directory and moved into
   * place (atomically where the file system can); in place, only if the source's size and modification time are
   * still those read at the start.
   */
  public static RecompressionResult recompress(Path file, Options options, Configuration conf) throws IOException {
    CodecOptions codec = CodecOptions.from(conf);
    String path = file.toUri().toString();
    BasicFileAttributes before;
    try {
      before = Files.readAttributes(file, BasicFileAttributes.class);
    } catch (NoSuchFileException e) {
      throw new FileNotFoundException(path + ": recompress: no such file");
    }
    Path target = file.resolveSibling(targetName(file.getFileName().toString(), options));
    String targetPath = target.toUri().toString();
    try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 64 * 1024)) {
      SourceFormat format = detect(in, path, options);
      if (format == SourceFormat.BGZF && options.format() == Format.BGZF) {
        return new RecompressionResult(Outcome.ALREADY_BGZF, path, format.label(), path, true, before.size(), -1,
            -1, -1, -1, false);
      }
      boolean targetExists = options.inPlace() || Files.exists(target);
      if (options.dryRun()) {
        return new RecompressionResult(Outcome.DRY_RUN, path, format.label(), targetPath, targetExists,
            before.size(), -1, -1, -1, -1, false);
      }
      if (targetExists && !options.inPlace() && !options.overwrite()) {
        throw targetExists(targetPath);
      }
      Path temp = file.resolveSibling("." + file.getFileName() + ".recompress-" + UUID.randomUUID() + ".tmp");
      try {
        Transcoder.Totals totals;
        try (OutputStream out = Files.newOutputStream(temp)) {
          totals = Transcoder.copy(format.decompress(in, conf), options.format(), codec, out);
        }
        if (options.inPlace()) {
          BasicFileAttributes now = Files.readAttributes(file, BasicFileAttributes.class);
          if (now.size() != before.size() || !now.lastModifiedTime().equals(before.lastModifiedTime())) {
            throw new SourceChangedException(path, "size " + before.size() + ", modified "
                + before.lastModifiedTime(), null);
          }
        }
        move(temp, target, options.inPlace() || options.overwrite(), targetPath);
        boolean deleted = false;
        if (options.deleteSource()) {
          Files.delete(file);
          deleted = true;
        }
        return new RecompressionResult(Outcome.RECOMPRESSED, path, format.label(), targetPath, targetExists,
            before.size(), totals.compressedBytes(), totals.uncompressedBytes(), totals.lines(), totals.crc32(),
            deleted);
      } finally {
        Files.deleteIfExists(temp);
      }
    }
  }

  private static void move(Path temp, Path target, boolean replace, String targetPath) throws IOException {
    try {
      if (replace) {
        Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } else {
        // no atomic move: it may replace silently; without REPLACE_EXISTING the move refuses an existing target
        Files.move(temp, target);
      }
    } catch (FileAlreadyExistsException e) {
      throw targetExists(targetPath);
    }
  }

  /** The source's format from its first bytes (the stream is reset to its start). */
  private static SourceFormat detect(InputStream in, String path, Options options) throws IOException {
    in.mark(SourceFormat.HEADER_BYTES);
    byte[] head = new byte[SourceFormat.HEADER_BYTES];
    int n = in.readNBytes(head, 0, head.length);
    in.reset();
    SourceFormat format = SourceFormat.detect(head, n);
    if (format == null || format == SourceFormat.ZSTD) {
      throw new RecompressionException(path, "recompress: " + (format == null ? "neither gzip nor bzip2"
          : "zstd") + " (first bytes " + hex(head, Math.min(n, 4)) + "): recompress reads gzip and bzip2");
    }
    if (format == SourceFormat.BZIP2 && options.inPlace()) {
      throw new RecompressionException(path, "recompress --in-place: the source is bzip2; only a gzip source can"
          + " be replaced by BGZF under its name (leave out --in-place to write it beside)");
    }
    return format;
  }

  private static org.apache.hadoop.fs.FileAlreadyExistsException targetExists(String targetPath) {
    return new org.apache.hadoop.fs.FileAlreadyExistsException(targetPath + ": recompress: the target exists"
        + " (--overwrite replaces it)");
  }

  private static String hex(byte[] b, int n) {
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < n; i++) {
      s.append(String.format(Locale.ROOT, "%02x", b[i] & 0xff));
    }
    return n == 0 ? "none: empty" : s.toString();
  }
}
