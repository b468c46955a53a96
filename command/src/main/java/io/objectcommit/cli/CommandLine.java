package io.objectcommit.cli;

import java.io.File;
import java.net.MalformedURLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;

/**
 * One subcommand's parsed command line: the common options every subcommand takes ({@code -D key=value},
 * {@code -Dkey=value}, {@code --conf FILE}, {@code --help}), the subcommand's own options and its positional
 * arguments. The one option parser of the command: subcommands declare their options, never parse.
 */
public final class CommandLine {

  /** The options a subcommand takes besides the common ones. */
  public static final class Spec {
    final Set<String> flags = new TreeSet<>();
    final Set<String> valued = new TreeSet<>();

    /** An option without a value, such as {@code --dry-run}. */
    public Spec flag(String name) {
      flags.add(name);
      return this;
    }

    /** An option with a value, such as {@code --min-age 1h} (also {@code --min-age=1h}); may be repeated. */
    public Spec valued(String name) {
      valued.add(name);
      return this;
    }
  }

  private final List<String> positional;
  private final Map<String, List<String>> values;
  private final Set<String> flags;
  private final Map<String, String> properties;
  private final List<String> confFiles;
  private final boolean help;

  private CommandLine(List<String> positional, Map<String, List<String>> values, Set<String> flags,
      Map<String, String> properties, List<String> confFiles, boolean help) {
    this.positional = Collections.unmodifiableList(positional);
    this.values = Collections.unmodifiableMap(values);
    this.flags = Collections.unmodifiableSet(flags);
    this.properties = Collections.unmodifiableMap(properties);
    this.confFiles = Collections.unmodifiableList(confFiles);
    this.help = help;
  }

  /** Parses {@code args} (the words after the subcommand's name). */
  public static CommandLine parse(String[] args, Spec spec) throws UsageException {
    List<String> positional = new ArrayList<>();
    Map<String, List<String>> values = new LinkedHashMap<>();
    Set<String> flags = new TreeSet<>();
    Map<String, String> properties = new LinkedHashMap<>();
    List<String> confFiles = new ArrayList<>();
    boolean help = false;
    boolean optionsEnded = false;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (optionsEnded || !a.startsWith("-") || a.equals("-")) {
        positional.add(a);
      } else if (a.equals("--")) {
        optionsEnded = true;
      } else if (a.equals("--help") || a.equals("-h")) {
        help = true;
      } else if (a.equals("-D")) {
        if (i + 1 >= args.length) {
          throw new UsageException("-D needs key=value after it");
        }
        property(args[++i], properties);
      } else if (a.startsWith("-D")) {
        property(a.substring(2), properties);
      } else if (a.equals("--conf") || a.startsWith("--conf=")) {
        String file = a.equals("--conf") ? next(args, ++i, a) : a.substring("--conf=".length());
        if (!new File(file).isFile()) {
          throw new UsageException("--conf " + file + ": no such file (expected a Hadoop configuration file such"
              + " as core-site.xml)");
        }
        confFiles.add(file);
      } else {
        int eq = a.indexOf('=');
        String name = eq > 0 ? a.substring(0, eq) : a;
        if (spec.valued.contains(name)) {
          String v = eq > 0 ? a.substring(eq + 1) : next(args, ++i, name);
          values.computeIfAbsent(name, k -> new ArrayList<>()).add(v);
        } else if (spec.flags.contains(name) && eq < 0) {
          flags.add(name);
        } else if (spec.flags.contains(name)) {
          throw new UsageException(name + " takes no value");
        } else {
          throw new UsageException("unknown option " + a + expected(spec));
        }
      }
    }
    return new CommandLine(positional, values, flags, properties, confFiles, help);
  }

  private static String next(String[] args, int i, String option) throws UsageException {
    if (i >= args.length || (args[i].startsWith("--") && args[i].length() > 2)) {
      throw new UsageException(option + " needs a value");
    }
    return args[i];
  }

  private static void property(String kv, Map<String, String> properties) throws UsageException {
    int eq = kv.indexOf('=');
    if (eq <= 0) {
      throw new UsageException("-D " + kv + ": expected key=value (as -D key=value or -Dkey=value)");
    }
    properties.put(kv.substring(0, eq).trim(), kv.substring(eq + 1));
  }

  private static String expected(Spec spec) {
    Set<String> all = new TreeSet<>(spec.flags);
    all.addAll(spec.valued);
    all.add("-D");
    all.add("--conf");
    all.add("--help");
    return " (options here: " + String.join(", ", all) + ")";
  }

  /** True when {@code --help} (or {@code -h}) was given. */
  public boolean help() {
    return help;
  }

  public List<String> positional() {
    return positional;
  }

  public boolean flag(String name) {
    return flags.contains(name);
  }

  /** The values of a valued option, in order (empty when not given). */
  public List<String> values(String name) {
    return values.getOrDefault(name, List.of());
  }

  /** The single value of an option, or {@code def}; a repeated option is a usage error. */
  public String value(String name, String def) throws UsageException {
    List<String> v = values(name);
    if (v.size() > 1) {
      throw new UsageException(name + " given " + v.size() + " times");
    }
    return v.isEmpty() ? def : v.get(0);
  }

  /** The {@code -D} settings, in order. */
  public Map<String, String> properties() {
    return properties;
  }

  /**
   * The Hadoop configuration: core-default.xml and core-site.xml from the class path, then each {@code --conf}
   * file in order, then the {@code -D} settings (which win over any file).
   */
  public Configuration configuration() throws UsageException {
    Configuration conf = new Configuration();
    for (String f : confFiles) {
      try {
        conf.addResource(new File(f).toURI().toURL());
      } catch (MalformedURLException e) {
        throw new UsageException("--conf " + f + ": " + e.getMessage());
      }
    }
    try {
      conf.size(); // loads the resources now: a broken file is a usage error, not a failure in the middle
    } catch (RuntimeException e) {
      throw new UsageException("--conf " + String.join(", ", confFiles) + ": not a Hadoop configuration file ("
          + e.getMessage() + ")");
    }
    properties.forEach((k, v) -> conf.set(k, v, "-D"));
    return conf;
  }
}
