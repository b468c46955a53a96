package io.objectcommit.it.delta;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What the writer JVMs of {@link DeltaConcurrentWritersIT} ({@link DeltaAppender}, {@link DeltaUpdater}) share:
 * their command line and their report files.
 *
 * <p>Command line: the tables (comma-separated), one report file per table (comma-separated, in the same order),
 * the writer's own arguments, then {@code key=value} Spark settings. A report has a line per transaction on its
 * table, as Delta reported it to the application: {@code w1-s3 ok}, or {@code w1-s3 failed <message>}.
 */
final class DeltaWriterJvm implements AutoCloseable {

  private final List<String> tables;
  private final List<String> own;
  private final Map<String, String> sparkConf;
  private final List<PrintWriter> reports = new ArrayList<>();

  private DeltaWriterJvm(List<String> tables, List<String> own, Map<String, String> sparkConf) {
    this.tables = tables;
    this.own = own;
    this.sparkConf = sparkConf;
  }

  /** The arguments that start a writer on {@code tables}, reporting to {@code reports}, with its own arguments. */
  static List<String> args(List<String> tables, List<Path> reports, List<String> own) {
    List<String> args = new ArrayList<>();
    args.add(String.join(",", tables));
    args.add(reports.stream().map(Path::toString).collect(Collectors.joining(",")));
    args.addAll(own);
    return args;
  }

  /** Reads a writer's command line ({@code ownArgs} of its own) and opens its report files. */
  static DeltaWriterJvm open(String[] args, int ownArgs) throws IOException {
    Map<String, String> conf = new LinkedHashMap<>();
    for (int i = 2 + ownArgs; i < args.length; i++) {
      int eq = args[i].indexOf('=');
      conf.put(args[i].substring(0, eq), args[i].substring(eq + 1));
    }
    DeltaWriterJvm jvm = new DeltaWriterJvm(List.of(args[0].split(",", -1)),
        List.of(Arrays.copyOfRange(args, 2, 2 + ownArgs)), conf);
    try {
      for (String report : args[1].split(",", -1)) {
        jvm.reports.add(new PrintWriter(Files.newBufferedWriter(Path.of(report), StandardCharsets.UTF_8), true));
      }
    } catch (IOException | RuntimeException e) {
      jvm.close();
      throw e;
    }
    return jvm;
  }

  /** The tables, in the order of the report files. */
  List<String> tables() {
    return tables;
  }

  /** The writer's own argument {@code i}. */
  String arg(int i) {
    return own.get(i);
  }

  Map<String, String> sparkConf() {
    return sparkConf;
  }

  /** Reports that Delta committed {@code txn} on table {@code table} (its index). */
  void committed(int table, String txn) {
    reports.get(table).println(txn + " ok");
  }

  /** Reports that Delta failed {@code txn} on table {@code table} (its index), with {@code message}. */
  void failed(int table, String txn, String message) {
    reports.get(table).println(txn + " failed " + message.replace('\n', ' '));
  }

  /**
   * Reads a report: the transactions Delta reported committed into {@code committed}, the lines of the failed ones
   * into {@code failures}.
   */
  static void read(Path report, Collection<String> committed, Collection<String> failures) throws IOException {
    for (String line : Files.readAllLines(report)) {
      String[] parts = line.split(" ", 2);
      if (parts[1].equals("ok")) {
        committed.add(parts[0]);
      } else {
        failures.add(line);
      }
    }
  }

  @Override
  public void close() {
    reports.forEach(PrintWriter::close);
  }
}
