package io.objectcommit.testsupport;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/**
 * The Spark calls whose bytecode differs between Spark lines, for the code compiled once against Spark 3.5 that runs on
 * every line (the tests and the benchmark; docs/development.md, "Which tests run on which Spark line"). Spark 4
 * declares {@code DataStreamWriter.option(String, String)} only in its generic {@code WriteConfigMethods}, whose
 * erased return type is {@code Object}: a call compiled against Spark 3.5, which returns {@code DataStreamWriter}, fails
 * there with {@code NoSuchMethodError}. The other overloads of {@code option} (boolean, long, double) are the same
 * on every line.
 */
public final class SparkCompat {

  private SparkCompat() {
  }

  /** {@code writer.option(key, value)} for Spark's {@code DataStreamWriter} of any line: the same writer. */
  public static <W> W option(W writer, String key, String value) {
    try {
      Method option = writer.getClass().getMethod("option", String.class, String.class);
      option.setAccessible(true);
      option.invoke(writer, key, value);
      return writer;
    } catch (InvocationTargetException e) {
      throw e.getCause() instanceof RuntimeException ? (RuntimeException) e.getCause()
          : new IllegalStateException("option(" + key + ") of " + writer.getClass().getName(), e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("no option(String, String) on " + writer.getClass().getName(), e);
    }
  }
}
