package io.objectcommit.bench;

import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;

/**
 * Spark's job commit time, read from the INFO line {@code Write Job <uuid> committed. Elapsed time: N ms.} that
 * {@code FileFormatWriter} logs after {@code committer.commitJob} (the same duration as the write command's
 * {@code jobCommitTime} SQL metric). Installs a log4j2 appender on that one logger, at INFO, not passed on to the
 * console.
 */
public final class CommitTimeLog {

  static final String LOGGER = "org.apache.spark.sql.execution.datasources.FileFormatWriter";
  private static final Pattern COMMITTED = Pattern.compile("Write Job \\S+ committed\\. Elapsed time: (\\d+) ms");

  private final AtomicLong lastMs = new AtomicLong(-1);
  private final AtomicLong lastEndMillis = new AtomicLong(-1);

  private CommitTimeLog() {
  }

  private static CommitTimeLog installed;

  /**
   * Installs the appender, once per JVM: a later call returns the same log (log4j2 keeps the first configuration
   * of a logger name, so a second appender would never see a line).
   */
  public static synchronized CommitTimeLog install() {
    if (installed != null) {
      return installed;
    }
    CommitTimeLog log = new CommitTimeLog();
    installed = log;
    LoggerContext ctx = (LoggerContext) LogManager.getContext(false);
    Configuration config = ctx.getConfiguration();
    AbstractAppender appender = new AbstractAppender("objectcommit-bench-commit-time", null, null, true,
        Property.EMPTY_ARRAY) {
      @Override
      public void append(LogEvent event) {
        long ms = parse(event.getMessage().getFormattedMessage());
        if (ms >= 0) {
          log.lastEndMillis.set(event.getTimeMillis());
          log.lastMs.set(ms);
        }
      }
    };
    appender.start();
    config.addAppender(appender);
    LoggerConfig logger = new LoggerConfig(LOGGER, Level.INFO, false);
    logger.addAppender(appender, Level.INFO, null);
    config.addLogger(LOGGER, logger);
    ctx.updateLoggers();
    return log;
  }

  /** The milliseconds of a commit line, -1 when the message is not one. */
  static long parse(String message) {
    Matcher m = COMMITTED.matcher(message);
    return m.find() ? Long.parseLong(m.group(1)) : -1;
  }

  /** Forgets the last commit seen; call before a write. */
  public void reset() {
    lastMs.set(-1);
    lastEndMillis.set(-1);
  }

  /** The commit time of the last write since {@link #reset()}. */
  public long lastCommitMs() {
    long ms = lastMs.get();
    if (ms < 0) {
      throw new IllegalStateException("no 'Write Job ... committed' line from " + LOGGER
          + " since the write started: is log4j2 the logging backend?");
    }
    return ms;
  }

  /** When the last commit since {@link #reset()} ended (wall clock ms: the commit line's log time). */
  public long lastCommitEndMillis() {
    lastCommitMs();
    return lastEndMillis.get();
  }
}
