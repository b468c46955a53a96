package io.objectcommit.readcache;

import io.objectcommit.readcache.files.ApplicationUsage;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What the applications of a host read through one cache directory ({@link ReadCache#usage}), from the records its
 * JVMs keep there: each application's counts summed over its JVMs (the driver and executors of one application on
 * the host), and the host's sum. Immutable.
 */
public final class CacheUsage {

  /** The application name of {@link #host()}'s sum: {@value}. */
  public static final String HOST = "(host)";

  private final List<ApplicationUsage> records;
  private final List<ApplicationUsage> applications;
  private final Map<String, Set<String>> jvms = new LinkedHashMap<>();
  private final ApplicationUsage host;
  private final List<String> unreadable;

  /** From the records of each application and JVM, and what could not be read. */
  public CacheUsage(List<ApplicationUsage> records, List<String> unreadable) {
    this.records = List.copyOf(records);
    this.unreadable = List.copyOf(unreadable);
    Map<String, ApplicationUsage> byApp = new LinkedHashMap<>();
    ApplicationUsage total = null;
    for (ApplicationUsage r : records) {
      byApp.merge(r.application, r, (a, b) -> a.plus(b, a.application));
      jvms.computeIfAbsent(r.application, k -> new HashSet<>()).add(r.jvm);
      total = total == null ? r.plus(null, HOST) : total.plus(r, HOST);
    }
    List<ApplicationUsage> apps = new ArrayList<>(byApp.values());
    apps.sort(Comparator.comparingLong((ApplicationUsage a) -> a.updated).thenComparing(a -> a.application));
    this.applications = List.copyOf(apps);
    this.host = total;
  }

  /** One record per application and JVM, as read. */
  public List<ApplicationUsage> records() {
    return records;
  }

  /** Each application's counts, summed over its JVMs, the least recently updated first. */
  public List<ApplicationUsage> applications() {
    return applications;
  }

  /** How many JVMs counted reads of {@code application}. */
  public int jvms(String application) {
    return jvms.getOrDefault(application, Set.of()).size();
  }

  /** Every application's counts summed (the host's use of the directory); empty without a record. */
  public Optional<ApplicationUsage> host() {
    return Optional.ofNullable(host);
  }

  /** Why each file of the records' folder that is not a record was refused. */
  public List<String> unreadable() {
    return unreadable;
  }
}
