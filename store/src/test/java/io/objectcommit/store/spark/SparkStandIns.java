package io.objectcommit.store.spark;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.apache.hadoop.conf.Configuration;

/**
 * Small stand-ins for the Spark classes {@link SparkRuntime} reads ({@code SparkEnv}, {@code SparkConf},
 * {@code SparkContext} and its Scala object, {@code TaskContext} and its completion listeners, {@code scala.Option}), compiled by the test and
 * loaded apart from its class path (whose Hadoop they share): a JVM with Spark, driver or executor, with or
 * without a task on the current thread, for the tests of the store module, which has no Spark. {@code SparkEnv}
 * also has a public method naming a class that can be left out ({@link #MISSING}), as PySpark 4.3.0's names
 * protobuf types its {@code jars/} lack.
 */
public final class SparkStandIns {

  /** A class one of {@code SparkEnv}'s unrelated methods names. */
  public static final String MISSING = "com.google.protobuf.MessageOrBuilder";

  private static final Map<String, String> SOURCES = new LinkedHashMap<>();

  static {
    SOURCES.put("org/apache/spark/SparkConf.java", "package org.apache.spark;\n"
        + "public class SparkConf {\n"
        + "  private final java.util.Map<String, String> values = new java.util.HashMap<>();\n"
        + "  public SparkConf set(String k, String v) { values.put(k, v); return this; }\n"
        + "  public String get(String k, String dflt) { return values.getOrDefault(k, dflt); }\n"
        + "}\n");
    SOURCES.put("org/apache/spark/SparkEnv.java", "package org.apache.spark;\n"
        + "public class SparkEnv {\n"
        + "  public static SparkEnv current;\n"
        + "  private final SparkConf conf;\n"
        + "  private final String executorId;\n"
        + "  public SparkEnv(String appId, String executorId) {\n"
        + "    this.conf = new SparkConf().set(\"spark.app.id\", appId).set(\"spark.app.name\", \"name of \" + appId);\n"
        + "    this.executorId = executorId; }\n"
        + "  public static SparkEnv get() { return current; }\n"
        + "  public SparkConf conf() { return conf; }\n"
        + "  public String executorId() { return executorId; }\n"
        + "  public " + MISSING + " message() { return null; }\n"
        + "}\n");
    SOURCES.put("com/google/protobuf/MessageOrBuilder.java",
        "package com.google.protobuf;\npublic interface MessageOrBuilder {}\n");
    SOURCES.put("scala/Option.java", "package scala;\n"
        + "public class Option {\n"
        + "  private final Object value;\n"
        + "  public Option(Object value) { this.value = value; }\n"
        + "  public boolean isEmpty() { return value == null; }\n"
        + "  public Object get() { if (value == null) throw new java.util.NoSuchElementException(); return value; }\n"
        + "}\n");
    SOURCES.put("org/apache/spark/SparkContext.java", "package org.apache.spark;\n"
        + "public class SparkContext {\n"
        + "  private final org.apache.hadoop.conf.Configuration hadoopConf;\n"
        + "  public final ThreadLocal<java.util.Map<String, String>> local =\n"
        + "      ThreadLocal.withInitial(java.util.HashMap::new);\n"
        + "  public SparkContext(org.apache.hadoop.conf.Configuration c) { hadoopConf = c; }\n"
        + "  public org.apache.hadoop.conf.Configuration hadoopConfiguration() { return hadoopConf; }\n"
        + "  public String getLocalProperty(String k) { return local.get().get(k); }\n"
        + "  public void setLocalProperty(String k, String v) { local.get().put(k, v); }\n"
        + "}\n");
    SOURCES.put("org/apache/spark/SparkContext$.java", "package org.apache.spark;\n"
        + "public final class SparkContext$ {\n"
        + "  public static final SparkContext$ MODULE$ = new SparkContext$();\n"
        + "  public static SparkContext active;\n"
        + "  public scala.Option getActive() { return new scala.Option(active); }\n"
        + "}\n");
    SOURCES.put("org/apache/spark/util/TaskCompletionListener.java", "package org.apache.spark.util;\n"
        + "public interface TaskCompletionListener extends java.util.EventListener {\n"
        + "  void onTaskCompletion(org.apache.spark.TaskContext context);\n"
        + "}\n");
    SOURCES.put("org/apache/spark/TaskContext.java", "package org.apache.spark;\n"
        + "public class TaskContext {\n"
        + "  private final java.util.List<org.apache.spark.util.TaskCompletionListener> listeners =\n"
        + "      new java.util.ArrayList<>();\n"
        + "  private static final ThreadLocal<TaskContext> CURRENT = new ThreadLocal<>();\n"
        + "  private final long id;\n"
        + "  private final java.util.Map<String, String> props;\n"
        + "  public TaskContext(long id, java.util.Map<String, String> props) { this.id = id; this.props = props; }\n"
        + "  public static TaskContext get() { return CURRENT.get(); }\n"
        + "  public static void set(TaskContext t) { CURRENT.set(t); }\n"
        + "  public long taskAttemptId() { return id; }\n"
        + "  public String getLocalProperty(String k) { return props.get(k); }\n"
        + "  public int numPartitions() { return 4; }\n"
        + "  public int stageId() { return 7; }\n"
        + "  public int partitionId() { return (int) id % 10; }\n"
        + "  public int attemptNumber() { return 0; }\n"
        + "  public TaskContext addTaskCompletionListener(org.apache.spark.util.TaskCompletionListener l) {\n"
        + "    listeners.add(l); return this; }\n"
        + "  public void complete() {\n"
        + "    for (int i = listeners.size() - 1; i >= 0; i--) { listeners.get(i).onTaskCompletion(this); } }\n"
        + "}\n");
  }

  private final ClassLoader loader;

  private SparkStandIns(ClassLoader loader) {
    this.loader = loader;
  }

  /** The stand-ins compiled under {@code dir}, with the classes named in {@code remove} deleted afterwards. */
  public static SparkStandIns compile(Path dir, String... remove) throws IOException {
    List<String> args = new ArrayList<>(List.of("-d", dir.resolve("classes").toString(), "-classpath",
        System.getProperty("java.class.path")));
    for (Map.Entry<String, String> e : SOURCES.entrySet()) {
      Path f = dir.resolve("src").resolve(e.getKey());
      Files.createDirectories(f.getParent());
      Files.writeString(f, e.getValue());
      args.add(f.toString());
    }
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    if (javac.run(null, null, null, args.toArray(new String[0])) != 0) {
      throw new IllegalStateException("the Spark stand-ins do not compile");
    }
    for (String name : remove) {
      Files.delete(dir.resolve("classes").resolve(name.replace('.', '/') + ".class"));
    }
    return new SparkStandIns(new StandInsFirst(dir.resolve("classes").toUri().toURL(),
        SparkStandIns.class.getClassLoader()));
  }

  /** A loader without Spark. */
  public static ClassLoader noSpark() {
    return new URLClassLoader(new URL[0], ClassLoader.getPlatformClassLoader());
  }

  /** A runtime of a JVM without Spark. */
  public static SparkRuntime absent() {
    return new SparkRuntime(noSpark());
  }

  public ClassLoader loader() {
    return loader;
  }

  /** A runtime reading these stand-ins. */
  public SparkRuntime runtime() {
    return new SparkRuntime(loader);
  }

  /** A Spark environment of application {@code appId} in executor {@code executorId} ("driver"); null: none. */
  public SparkStandIns environment(String appId, String executorId) throws ReflectiveOperationException {
    Class<?> env = cls("org.apache.spark.SparkEnv");
    env.getField("current").set(null, appId == null ? null
        : env.getConstructor(String.class, String.class).newInstance(appId, executorId));
    return this;
  }

  /** An active SparkContext with {@code conf} as its Hadoop configuration (null: none); returns it. */
  public Object activeContext(Configuration conf) throws ReflectiveOperationException {
    Object sc = conf == null ? null
        : cls("org.apache.spark.SparkContext").getConstructor(Configuration.class).newInstance(conf);
    cls("org.apache.spark.SparkContext$").getField("active").set(null, sc);
    return sc;
  }

  /** Sets a local property of the active context on the current thread. */
  public void localProperty(Object context, String key, String value) throws ReflectiveOperationException {
    context.getClass().getMethod("setLocalProperty", String.class, String.class).invoke(context, key, value);
  }

  /** A task on the current thread (id {@code id}, local properties {@code props}); {@code id < 0}: none. */
  public void task(long id, Map<String, String> props) throws ReflectiveOperationException {
    Class<?> tc = cls("org.apache.spark.TaskContext");
    Object t = id < 0 ? null : tc.getConstructor(long.class, Map.class).newInstance(id, props);
    tc.getMethod("set", tc).invoke(null, t);
  }

  /**
   * Completes the task on the current thread as Spark does: its completion listeners run, the last registered
   * first; then the thread has no task.
   */
  public void completeTask() throws ReflectiveOperationException {
    Class<?> tc = cls("org.apache.spark.TaskContext");
    Object t = tc.getMethod("get").invoke(null);
    if (t != null) {
      tc.getMethod("complete").invoke(t);
    }
    tc.getMethod("set", tc).invoke(null, (Object) null);
  }

  private Class<?> cls(String name) throws ClassNotFoundException {
    return Class.forName(name, true, loader);
  }

  /**
   * Loads the stand-ins' packages from the stand-ins only: the test may run where the real Spark is on the class path
   * too (a Spark line's bundle runs these tests), whose classes a parent-first loader would give instead.
   */
  private static final class StandInsFirst extends URLClassLoader {
    StandInsFirst(URL classes, ClassLoader parent) {
      super(new URL[] {classes}, parent);
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      if (!name.startsWith("org.apache.spark.") && !name.startsWith("scala.")
          && !name.startsWith("com.google.protobuf.")) {
        return super.loadClass(name, resolve);
      }
      synchronized (getClassLoadingLock(name)) {
        Class<?> c = findLoadedClass(name);
        if (c == null) {
          c = findClass(name); // a stand-in removed to play a Spark without it is missing: never the real one
        }
        if (resolve) {
          resolveClass(c);
        }
        return c;
      }
    }
  }
}
