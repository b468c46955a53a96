package io.objectcommit.bench.codecs;

import io.objectcommit.bench.Progress;
import io.objectcommit.codecs.BgzfCodec;
import io.objectcommit.codecs.CodecConstants;
import io.objectcommit.codecs.GzipIndexes;
import io.objectcommit.codecs.SeekableZstdCodec;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.compress.BZip2Codec;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.util.ReflectionUtils;

/**
 * The benchmark's files on local disk, made once and kept in the cache directory between runs: the generated text
 * ({@link LogLines}, seed fixed) and the same text as gzip ({@code GZIPOutputStream}, level 6 as {@code gzip}),
 * bzip2 (the {@code bzip2} command, {@code -9} as by default; Hadoop's {@code BZip2Codec} where the command is
 * missing), BGZF and seekable zstd (our codecs' writers with their default settings), and the gzip index of the
 * {@code .gz} file ({@link GzipIndexes}, as {@code objectcommit gzip-index} writes it). A file is written under a
 * temporary name and moved into place, and the manifest ({@code corpus.properties}) names the size and seed: a
 * cache made for another size is made again.
 */
final class BenchFiles {

  /** The generator's seed: the same text in every run. */
  static final long SEED = 4;

  private static final String MANIFEST = "corpus.properties";

  /**
   * What the cache holds.
   *
   * @param dir the cache directory
   * @param lines lines of the text
   * @param textBytes bytes of the text
   * @param sizes bytes of each file by name (the gzip index under its own name)
   */
  record Corpus(Path dir, long lines, long textBytes, Map<String, Long> sizes) {

    Path file(TextFormat f) {
      return dir.resolve(f.fileName());
    }

    long size(TextFormat f) {
      return sizes.get(f.fileName());
    }
  }

  private BenchFiles() {
  }

  /**
   * The cache for {@code textBytes} of text, with the files of {@code formats} made (or made again) where missing or
   * made for another size.
   */
  static Corpus prepare(Path dir, long textBytes, int gzipIndexSpacing, List<TextFormat> formats)
      throws IOException {
    Set<String> needed = new HashSet<>();
    formats.forEach(f -> needed.add(f.fileName()));
    Files.createDirectories(dir);
    Properties manifest = readManifest(dir);
    String want = textBytes + "/" + SEED;
    if (!want.equals(manifest.getProperty("text")) || !Files.exists(dir.resolve("lines.txt"))) {
      manifest = new Properties();
      long t0 = System.nanoTime();
      long[] counts;
      Path tmp = dir.resolve("lines.txt.tmp");
      try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 20)) {
        counts = new LogLines(SEED).write(out, textBytes);
      }
      Files.move(tmp, dir.resolve("lines.txt"), StandardCopyOption.REPLACE_EXISTING);
      manifest.setProperty("text", want);
      manifest.setProperty("lines", Long.toString(counts[0]));
      manifest.setProperty("bytes", Long.toString(counts[1]));
      writeManifest(dir, manifest);
      Progress.say(String.format("text: %,d lines, %,d bytes in %.0f s", counts[0], counts[1],
          (System.nanoTime() - t0) / 1e9));
    }
    Path text = dir.resolve("lines.txt");
    Configuration conf = new Configuration(false);
    List<Writer> writers = Stream.of(
        new Writer("lines.gz", out -> new GZIPOutputStream(out, 1 << 16)),
        new Writer("lines.bz2", null),
        new Writer("lines.bgz", out -> codec(BgzfCodec.class, conf).createOutputStream(out)),
        new Writer("lines.seekable.zst", out -> codec(SeekableZstdCodec.class, conf).createOutputStream(out)))
        .filter(w -> needed.contains(w.name)).toList();
    ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, writers.size()));
    try {
      List<Future<?>> done = new ArrayList<>();
      for (Writer w : writers) {
        if (!want.equals(manifest.getProperty(w.name))) {
          done.add(pool.submit(() -> {
            w.write(text, dir);
            return null;
          }));
        }
      }
      for (Future<?> f : done) {
        f.get();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while compressing the benchmark's text", e);
    } catch (ExecutionException e) {
      throw new IOException("compressing the benchmark's text failed", e.getCause());
    } finally {
      pool.shutdown();
    }
    for (Writer w : writers) {
      manifest.setProperty(w.name, want);
    }
    String index = "." + "lines.gz" + GzipIndexes.SUFFIX;
    String indexWant = want + "/" + gzipIndexSpacing;
    if (formats.contains(TextFormat.INDEXED_GZIP) && (!indexWant.equals(manifest.getProperty(index))
        || !Files.exists(dir.resolve(index)))) {
      long t0 = System.nanoTime();
      writeIndex(new org.apache.hadoop.fs.Path(dir.resolve("lines.gz").toUri()), gzipIndexSpacing);
      manifest.setProperty(index, indexWant);
      Progress.say(String.format("gzip index of lines.gz in %.0f s", (System.nanoTime() - t0) / 1e9));
    }
    writeManifest(dir, manifest);
    Map<String, Long> sizes = new LinkedHashMap<>();
    for (String name : List.of("lines.txt", "lines.gz", "lines.bz2", "lines.bgz", "lines.seekable.zst", index)) {
      if (needed.contains(name) || (name.equals(index) && formats.contains(TextFormat.INDEXED_GZIP))) {
        sizes.put(name, Files.size(dir.resolve(name)));
      }
    }
    return new Corpus(dir, Long.parseLong(manifest.getProperty("lines")), Long.parseLong(manifest.getProperty(
        "bytes")), sizes);
  }

  /** Writes the gzip index beside {@code gz} (local or S3), as {@code objectcommit gzip-index} does. */
  static void writeIndex(org.apache.hadoop.fs.Path gz, int spacing, Map<String, String> hadoop) throws IOException {
    Configuration conf = new Configuration();
    hadoop.forEach(conf::set);
    conf.setInt(CodecConstants.GZIP_INDEX_SPACING, spacing);
    GzipIndexes.write(gz, conf);
  }

  private static void writeIndex(org.apache.hadoop.fs.Path gz, int spacing) throws IOException {
    writeIndex(gz, spacing, Map.of());
  }

  private static CompressionCodec codec(Class<? extends CompressionCodec> type, Configuration conf) {
    return ReflectionUtils.newInstance(type, conf);
  }

  /** Opens a compressing stream over a file's output stream. */
  private interface Compressing {
    OutputStream open(OutputStream out) throws IOException;
  }

  /** One compressed file made from the text; {@code compressing} null: bzip2. */
  private record Writer(String name, Compressing compressing) {

    void write(Path text, Path dir) throws IOException {
      long t0 = System.nanoTime();
      Path tmp = dir.resolve(name + ".tmp");
      if (compressing == null) {
        bzip2(text, tmp);
      } else {
        try (InputStream in = Files.newInputStream(text);
            OutputStream out = compressing.open(new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 20))) {
          in.transferTo(out);
        }
      }
      Files.move(tmp, dir.resolve(name), StandardCopyOption.REPLACE_EXISTING);
      Progress.say(String.format("%s: %,d bytes in %.0f s", name, Files.size(dir.resolve(name)),
          (System.nanoTime() - t0) / 1e9));
    }

    private static void bzip2(Path text, Path target) throws IOException {
      try {
        Process p = new ProcessBuilder("bzip2", "-c", "-9", text.toString()).redirectOutput(target.toFile())
            .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        if (p.waitFor() != 0) {
          throw new IOException("bzip2 -c -9 " + text + " exited with " + p.exitValue());
        }
      } catch (IOException noCommand) {
        if (!String.valueOf(noCommand.getMessage()).contains("Cannot run program")) {
          throw noCommand;
        }
        CompressionCodec codec = codec(BZip2Codec.class, new Configuration(false));
        try (InputStream in = Files.newInputStream(text);
            OutputStream out = codec.createOutputStream(new BufferedOutputStream(Files.newOutputStream(target),
                1 << 20))) {
          in.transferTo(out);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while running bzip2", e);
      }
    }
  }

  private static Properties readManifest(Path dir) throws IOException {
    Properties p = new Properties();
    Path f = dir.resolve(MANIFEST);
    if (Files.exists(f)) {
      try (InputStream in = Files.newInputStream(f)) {
        p.load(in);
      }
    }
    return p;
  }

  private static void writeManifest(Path dir, Properties p) {
    try (OutputStream out = Files.newOutputStream(dir.resolve(MANIFEST))) {
      p.store(out, "the benchmark's generated files (BenchFiles)");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + dir.resolve(MANIFEST), e);
    }
  }
}
