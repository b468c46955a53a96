package io.objectcommit.direct;

import java.io.IOException;

/**
 * Spark is on the class path (its environment class loads) but a setting the direct committer must know could not
 * be read from it, typically because the running Spark is a release this objectcommit build does not know. The
 * committer refuses to guess: taking such a JVM for one without Spark would let Hadoop's defaults decide whether
 * speculation is on. {@link #className()} names the Spark class that could not be read, {@link #setting()} the
 * setting.
 */
public class SparkEnvironmentUnreadableException extends IOException {

  private static final long serialVersionUID = 1L;

  private final String className;
  private final String setting;

  public SparkEnvironmentUnreadableException(String className, String setting, Throwable cause) {
    super("Spark is on the class path (" + className + " loads) but the objectcommit direct committer cannot read "
        + setting + " from the running Spark environment: " + cause + ". Check that the objectcommit bundle is the"
        + " one for this Spark line (docs/user-guide.md, Spark lines); the committer does not write while it cannot"
        + " tell whether Spark runs speculative tasks.", cause);
    this.className = className;
    this.setting = setting;
  }

  /** The Spark class whose lookup failed. */
  public String className() {
    return className;
  }

  /** The Spark setting that could not be read. */
  public String setting() {
    return setting;
  }
}
