package io.objectcommit.bench.codecs;

import com.github.luben.zstd.ZstdInputStream;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

/**
 * The CPU target's yardstick: one single-stream decompression of a whole file from local disk, in this JVM, timed by
 * the CPU time of the thread that reads it ({@code ThreadMXBean}). Decompression only: the bytes are counted and
 * dropped, not cut into lines.
 */
final class SingleStream {

  /**
   * One decompression's cost.
   *
   * @param cpuNs CPU time of the reading thread
   * @param bytes decompressed bytes (checked against the text's size)
   */
  record Cost(long cpuNs, long bytes) {
  }

  private SingleStream() {
  }

  static Cost decompress(Path file, TextFormat.Baseline how, long expectedBytes) throws IOException {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long cpu0 = threads.getCurrentThreadCpuTime();
    long bytes = 0;
    try (InputStream raw = new BufferedInputStream(Files.newInputStream(file), 1 << 16);
        InputStream in = how == TextFormat.Baseline.GZIP ? new GZIPInputStream(raw, 1 << 16)
            : new ZstdInputStream(raw)) {
      byte[] buf = new byte[1 << 16];
      for (int n; (n = in.read(buf)) >= 0; ) {
        bytes += n;
      }
    }
    long cpu = threads.getCurrentThreadCpuTime() - cpu0;
    if (bytes != expectedBytes) {
      throw new IllegalStateException(file + " decompressed to " + bytes + " bytes, the text has " + expectedBytes);
    }
    return new Cost(cpu, bytes);
  }
}
