package io.objectcommit.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One LocalStack per build ({@link BuildEndpoint}): a stand-in for Maven's JVM starts two test JVMs one after the
 * other; the second uses the LocalStack the first started (after the first has exited), and LocalStack stops when
 * the stand-in is killed.
 */
class BuildEndpointIT {

  private static final long STOP_SECONDS = 40;

  /** The stand-in for Maven's JVM: runs two "test JVMs" one after the other, prints their ports, then waits. */
  public static final class Build {
    public static void main(String[] args) throws Exception {
      List<String> ports = new ArrayList<>();
      for (int i = 0; i < 2; i++) {
        Process test = java(TestJvm.class, args[0]).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(test.getInputStream(),
            StandardCharsets.UTF_8))) {
          String line;
          while ((line = out.readLine()) != null) {
            if (line.startsWith("port=")) {
              ports.add(line.substring(5));
            }
          }
        }
        if (test.waitFor() != 0) {
          throw new IllegalStateException("test JVM " + i + " failed");
        }
      }
      System.out.println("ports=" + String.join(",", ports));
      System.out.flush();
      Thread.sleep(TimeUnit.MINUTES.toMillis(10));
    }
  }

  /** A "test JVM": takes the build's endpoint and prints its port. */
  public static final class TestJvm {
    public static void main(String[] args) throws Exception {
      RunningEndpoint e = BuildEndpoint.acquire(Path.of(args[0]));
      System.out.println("port=" + e.endpoint().uri().getPort());
    }
  }

  static ProcessBuilder java(Class<?> main, String dir) {
    String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    return new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", cp,
        main.getName(), dir);
  }

  @Test
  void oneLocalStackServesEveryTestJvmOfABuildAndStopsWithTheBuild(@TempDir Path dir) throws Exception {
    Process build = java(Build.class, dir.toString()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    try {
      String ports = null;
      try (BufferedReader out = new BufferedReader(new InputStreamReader(build.getInputStream(),
          StandardCharsets.UTF_8))) {
        String line;
        while ((line = out.readLine()) != null) {
          if (line.startsWith("ports=")) {
            ports = line.substring(6);
            break;
          }
        }
        assertNotNull(ports, "the stand-in build printed no ports (exit " + (build.isAlive() ? "-" : build.exitValue())
            + ")");
        String[] p = ports.split(",");
        assertEquals(2, p.length, ports);
        assertEquals(p[0], p[1], "the second test JVM used the first one's LocalStack");
        int port = Integer.parseInt(p[0]);
        assertTrue(answers(port), "LocalStack answers while the build runs, after both test JVMs exited");
        build.destroyForcibly().waitFor();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(STOP_SECONDS);
        while (answers(port) && System.nanoTime() < deadline) {
          Thread.sleep(500);
        }
        assertTrue(!answers(port), "LocalStack stopped within " + STOP_SECONDS + " s of the build's end");
      }
    } finally {
      build.destroyForcibly();
    }
  }

  private static boolean answers(int port) {
    try {
      HttpURLConnection c = (HttpURLConnection) new URL("http://127.0.0.1:" + port + "/_localstack/health")
          .openConnection();
      c.setConnectTimeout(500);
      c.setReadTimeout(2000);
      try {
        return c.getResponseCode() == 200;
      } finally {
        c.disconnect();
      }
    } catch (IOException e) {
      return false;
    }
  }
}
