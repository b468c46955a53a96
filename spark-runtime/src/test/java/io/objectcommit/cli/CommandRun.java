package io.objectcommit.cli;

import io.objectcommit.testsupport.S3TestBucket;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** One run of the command in this JVM: exit code, stdout, stderr. */
final class CommandRun {
  final int code;
  final String out;
  final String err;

  private CommandRun(int code, String out, String err) {
    this.code = code;
    this.out = out;
    this.err = err;
  }

  static CommandRun of(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = ObjectCommitCommand.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    return new CommandRun(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  static CommandRun of(List<String> args) {
    return of(args.toArray(new String[0]));
  }

  /**
   * The bucket's connection settings given the three ways a user may give them: the endpoint (and what goes with
   * it) in a {@code --conf} core-site.xml, the access key as {@code -D key=value}, the secret key as
   * {@code -Dkey=value}. Each is needed: a syntax that was not applied fails the request.
   */
  static List<String> settings(S3TestBucket bucket, Path dir) throws IOException {
    return settings(bucket.s3aOptions(), dir);
  }

  /** {@link #settings(S3TestBucket, Path)} of these {@code fs.s3a.*} settings (an endpoint's, a proxy's). */
  static List<String> settings(Map<String, String> all, Path dir) throws IOException {
    StringBuilder xml = new StringBuilder("<?xml version=\"1.0\"?>\n<configuration>\n");
    List<String> args = new ArrayList<>();
    for (Map.Entry<String, String> e : all.entrySet()) {
      if (e.getKey().equals("fs.s3a.access.key")) {
        args.add("-D");
        args.add(e.getKey() + "=" + e.getValue());
      } else if (e.getKey().equals("fs.s3a.secret.key")) {
        args.add("-D" + e.getKey() + "=" + e.getValue());
      } else {
        xml.append("  <property><name>").append(e.getKey()).append("</name><value>").append(e.getValue())
            .append("</value></property>\n");
      }
    }
    xml.append("</configuration>\n");
    Path site = dir.resolve("core-site.xml");
    Files.writeString(site, xml.toString());
    args.add("--conf");
    args.add(site.toString());
    return args;
  }

  @Override
  public String toString() {
    return "exit " + code + "\n--- out\n" + out + "--- err\n" + err;
  }
}
