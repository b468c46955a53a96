package io.objectcommit.store.spark;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the store module reads of the Spark running in this JVM, if any: the application id, whether this JVM is the
 * driver, the driver's Hadoop configuration, and the task running on the current thread. Spark is looked up by name
 * (the store module runs without Spark), one method at a time with {@link MethodHandles#publicLookup()}:
 * {@code Class.getMethod} resolves the types of every public method of a class, and one of them may name a class
 * the running Spark does not ship (PySpark 4.3.0's {@code SparkEnv} names protobuf types), which must not read as
 * "no Spark".
 *
 * <p>Three states, told apart once per class loader ({@link #state()}): {@link State#ABSENT} ({@code SparkEnv}
 * does not load: not a Spark JVM), {@link State#PRESENT}, and {@link State#UNREADABLE} (Spark loads but a method
 * this class needs cannot be resolved, such as a Spark release that moved it). Nothing here fails a caller: what
 * cannot be read is empty, and an unreadable Spark is reported once as a WARN naming what could not be read. The
 * callers then do without (a request header without the Spark ids; a JVM that checks the store itself instead of
 * trusting its driver's verdict). Thread-safe.
 */
public final class SparkRuntime {

  private static final Logger LOG = LoggerFactory.getLogger(SparkRuntime.class);

  static final String SPARK_ENV = "org.apache.spark.SparkEnv";
  static final String SPARK_CONF = "org.apache.spark.SparkConf";
  static final String SPARK_CONTEXT = "org.apache.spark.SparkContext";
  /** The Scala object of {@code SparkContext}, whose {@code getActive} is {@code private[spark]} (public in bytecode). */
  static final String SPARK_CONTEXT_OBJECT = "org.apache.spark.SparkContext$";
  static final String TASK_CONTEXT = "org.apache.spark.TaskContext";
  /** The interface of {@code TaskContext.addTaskCompletionListener}'s listeners (a Scala trait: a Java interface). */
  static final String TASK_COMPLETION_LISTENER = "org.apache.spark.util.TaskCompletionListener";
  static final String SCALA_OPTION = "scala.Option";

  /** Spark's setting of the application id, set in every driver's and executor's SparkConf: {@value}. */
  public static final String APP_ID = "spark.app.id";
  /** Spark's setting of the application's name: {@value}. */
  public static final String APP_NAME = "spark.app.name";
  /** The executor id of the driver ({@code SparkContext.DRIVER_IDENTIFIER}): {@value}. */
  public static final String DRIVER_ID = "driver";
  /** The local property Structured Streaming sets on the jobs of a query: its id, {@value}. */
  public static final String STREAMING_QUERY_ID = "sql.streaming.queryId";

  /** Whether, and how well, Spark can be read in this JVM. */
  public enum State {
    /** {@code SparkEnv} does not load: not a Spark JVM. */
    ABSENT,
    /** Every method this class uses was resolved. */
    PRESENT,
    /** Spark loads, but some method could not be resolved ({@link #problems()}). */
    UNREADABLE
  }

  private static final SparkRuntime JVM = new SparkRuntime(SparkRuntime.class.getClassLoader());

  private final State state;
  private final List<String> problems;
  private final MethodHandle envGet;
  private final MethodHandle envConf;
  private final MethodHandle envExecutorId;
  private final MethodHandle confGet;
  private final MethodHandle activeContext;
  private final MethodHandle optionIsEmpty;
  private final MethodHandle optionGet;
  private final MethodHandle contextHadoopConf;
  private final MethodHandle contextLocalProperty;
  private final MethodHandle contextSetLocalProperty;
  private final MethodHandle taskGet;
  private final MethodHandle taskAttemptId;
  private final MethodHandle taskLocalProperty;
  private final MethodHandle taskPartitions;
  private final MethodHandle taskStageId;
  private final MethodHandle taskPartitionId;
  private final MethodHandle taskAttemptNumber;
  private final MethodHandle taskAddListener;
  private final Class<?> listenerType;
  private final Set<String> warned = ConcurrentHashMap.newKeySet();

  /** Resolves Spark through {@code loader}; tests give a loader of stand-ins. */
  SparkRuntime(ClassLoader loader) {
    Resolver r = new Resolver(loader);
    Class<?> env = r.type(SPARK_ENV);
    if (env == null && r.absent) {
      state = State.ABSENT;
      problems = List.of();
      envGet = envConf = envExecutorId = confGet = activeContext = optionIsEmpty = optionGet = contextHadoopConf =
          contextLocalProperty = contextSetLocalProperty = taskGet = taskAttemptId = taskLocalProperty =
          taskPartitions = taskStageId = taskPartitionId = taskAttemptNumber = taskAddListener = null;
      listenerType = null;
      return;
    }
    Class<?> conf = r.type(SPARK_CONF);
    Class<?> context = r.type(SPARK_CONTEXT);
    Class<?> contextObject = r.type(SPARK_CONTEXT_OBJECT);
    Class<?> task = r.type(TASK_CONTEXT);
    Class<?> option = r.type(SCALA_OPTION);
    listenerType = r.type(TASK_COMPLETION_LISTENER);
    envGet = r.staticMethod(env, "get", env);
    envConf = r.method(env, "conf", conf);
    envExecutorId = r.method(env, "executorId", String.class);
    confGet = r.method(conf, "get", String.class, String.class, String.class);
    activeContext = r.objectMethod(contextObject, "getActive", option);
    optionIsEmpty = r.method(option, "isEmpty", boolean.class);
    optionGet = r.method(option, "get", Object.class);
    contextHadoopConf = r.method(context, "hadoopConfiguration", Configuration.class);
    contextLocalProperty = r.method(context, "getLocalProperty", String.class, String.class);
    contextSetLocalProperty = r.method(context, "setLocalProperty", void.class, String.class, String.class);
    taskGet = r.staticMethod(task, "get", task);
    taskAttemptId = r.method(task, "taskAttemptId", long.class);
    taskLocalProperty = r.method(task, "getLocalProperty", String.class, String.class);
    taskPartitions = r.method(task, "numPartitions", int.class);
    taskStageId = r.method(task, "stageId", int.class);
    taskPartitionId = r.method(task, "partitionId", int.class);
    taskAttemptNumber = r.method(task, "attemptNumber", int.class);
    taskAddListener = listenerType == null ? null
        : r.method(task, "addTaskCompletionListener", task, listenerType);
    problems = Collections.unmodifiableList(r.problems);
    state = problems.isEmpty() ? State.PRESENT : State.UNREADABLE;
    if (state == State.UNREADABLE) {
      LOG.warn("Spark is on the class path ({} loads) but objectcommit cannot read all of it: {}. Requests then do"
          + " not name what could not be read, and each JVM checks the store itself instead of trusting its"
          + " driver's verdict. Check that the objectcommit bundle is the one for this Spark line (user guide,"
          + " Spark lines).", SPARK_ENV, String.join("; ", problems));
    }
  }

  /** The Spark of this JVM (resolved once, through the store module's class loader). */
  public static SparkRuntime jvm() {
    return JVM;
  }

  public State state() {
    return state;
  }

  /** What could not be resolved (empty unless {@link State#UNREADABLE}). */
  public List<String> problems() {
    return problems;
  }

  /** {@code spark.app.id} of the running Spark environment; empty without one. */
  public Optional<String> applicationId() {
    return setting(APP_ID);
  }

  /** {@code spark.app.name} of the running Spark environment; empty without one. */
  public Optional<String> applicationName() {
    return setting(APP_NAME);
  }

  private Optional<String> setting(String key) {
    Object conf = call("SparkEnv.get().conf()", () -> {
      Object env = envGet.invoke();
      return env == null ? null : envConf.invoke(env);
    }, envGet, envConf);
    if (conf == null) {
      return Optional.empty();
    }
    return Optional.ofNullable((String) call("SparkConf.get(" + key + ")",
        () -> confGet.invoke(conf, key, (String) null), confGet));
  }

  /** The executor id of this JVM's Spark environment ({@value #DRIVER_ID} on the driver); empty without one. */
  public Optional<String> executorId() {
    return Optional.ofNullable((String) call("SparkEnv.get().executorId()", () -> {
      Object env = envGet.invoke();
      return env == null ? null : envExecutorId.invoke(env);
    }, envGet, envExecutorId));
  }

  /** Whether a Spark driver runs in this JVM (in local mode the driver also runs the tasks). */
  public boolean isDriver() {
    return executorId().map(DRIVER_ID::equals).orElse(false);
  }

  /**
   * The Hadoop configuration of the active {@code SparkContext} ({@code SparkContext.hadoopConfiguration}): the one
   * Spark copies into the configurations it ships to tasks later (a query's state stores, the jobs planned from
   * now on). Empty in a JVM without an active SparkContext, such as an executor.
   */
  public Optional<Configuration> driverHadoopConfiguration() {
    Object sc = activeContext();
    if (sc == null) {
      return Optional.empty();
    }
    return Optional.ofNullable((Configuration) call("SparkContext.hadoopConfiguration()",
        () -> contextHadoopConf.invoke(sc), contextHadoopConf));
  }

  /** The id Spark gives the task attempt running on the current thread ({@code TaskContext.taskAttemptId()}). */
  public OptionalLong taskAttemptId() {
    Object tc = taskContext();
    if (tc == null) {
      return OptionalLong.empty();
    }
    Object id = call("TaskContext.taskAttemptId()", () -> taskAttemptId.invoke(tc), taskAttemptId);
    return id == null ? OptionalLong.empty() : OptionalLong.of((Long) id);
  }

  /**
   * A local property of the current thread's Spark job: from the task's {@code TaskContext} in a task, else from
   * the active {@code SparkContext} (the driver's threads). Empty when unset or without Spark.
   */
  public Optional<String> localProperty(String key) {
    Object tc = taskContext();
    if (tc != null) {
      return Optional.ofNullable((String) call("TaskContext.getLocalProperty()",
          () -> taskLocalProperty.invoke(tc, key), taskLocalProperty));
    }
    Object sc = activeContext();
    if (sc == null) {
      return Optional.empty();
    }
    return Optional.ofNullable((String) call("SparkContext.getLocalProperty()",
        () -> contextLocalProperty.invoke(sc, key), contextLocalProperty));
  }

  /** Whether a Spark task runs on the current thread. */
  public boolean inTask() {
    return taskContext() != null;
  }

  /**
   * The number of tasks (partitions) of the stage of the task running on the current thread
   * ({@code TaskContext.numPartitions()}); empty outside a task or without Spark.
   */
  public OptionalInt taskPartitions() {
    Object tc = taskContext();
    if (tc == null) {
      return OptionalInt.empty();
    }
    Object n = call("TaskContext.numPartitions()", () -> taskPartitions.invoke(tc), taskPartitions);
    return n == null ? OptionalInt.empty() : OptionalInt.of((Integer) n);
  }

  /**
   * Sets a local property on the current thread of the active {@code SparkContext} (a driver's thread): the jobs it
   * starts from now on, and the threads it starts, carry it. False, and nothing set, without an active context.
   */
  public boolean setLocalProperty(String key, String value) {
    Object sc = activeContext();
    if (sc == null) {
      return false;
    }
    Object done = call("SparkContext.setLocalProperty()", () -> {
      contextSetLocalProperty.invoke(sc, key, value);
      return key;
    }, contextSetLocalProperty);
    return done != null;
  }

  /**
   * The task on the current thread as people read it, {@code task 12 (stage 3, partition 1, attempt 0)}
   * ({@code taskAttemptId}, {@code stageId}, {@code partitionId}, {@code attemptNumber}); empty outside a task.
   */
  public Optional<String> taskDescription() {
    Object tc = taskContext();
    if (tc == null) {
      return Optional.empty();
    }
    return Optional.ofNullable((String) call("TaskContext's ids", () -> "task " + taskAttemptId.invoke(tc)
        + " (stage " + taskStageId.invoke(tc) + ", partition " + taskPartitionId.invoke(tc) + ", attempt "
        + taskAttemptNumber.invoke(tc) + ")", taskAttemptId, taskStageId, taskPartitionId, taskAttemptNumber));
  }

  /**
   * Runs {@code action} when the task on the current thread completes, successfully or not
   * ({@code TaskContext.addTaskCompletionListener}, on the task's thread; Spark runs a task's listeners in the
   * reverse order of their registration). Returns false, and never runs {@code action}, outside a task or when the
   * listener cannot be registered. A failure of {@code action} is logged, never given to Spark (it would fail the
   * task).
   */
  public boolean onTaskCompletion(Runnable action) {
    Object tc = taskContext();
    if (tc == null || listenerType == null) {
      return false;
    }
    Object listener = Proxy.newProxyInstance(listenerType.getClassLoader(), new Class<?>[] {listenerType},
        (proxy, method, args) -> {
          switch (method.getName()) {
            case "onTaskCompletion":
              try {
                action.run();
              } catch (RuntimeException e) {
                LOG.warn("A task completion action of objectcommit failed: {}", e.toString(), e);
              }
              return null;
            case "equals":
              return proxy == args[0];
            case "hashCode":
              return System.identityHashCode(proxy);
            case "toString":
              return "objectcommit task completion listener (" + action + ")";
            default:
              throw new UnsupportedOperationException(method.toString());
          }
        });
    return call("TaskContext.addTaskCompletionListener()", () -> taskAddListener.invoke(tc, listener),
        taskAddListener) != null;
  }

  private Object taskContext() {
    return call("TaskContext.get()", () -> taskGet.invoke(), taskGet);
  }

  private Object activeContext() {
    return call("SparkContext.getActive()", () -> {
      Object option = activeContext.invoke();
      return option == null || (boolean) optionIsEmpty.invoke(option) ? null : optionGet.invoke(option);
    }, activeContext, optionIsEmpty, optionGet);
  }

  @FunctionalInterface
  private interface Call {
    Object call() throws Throwable;
  }

  /** Runs {@code c} when every handle it needs was resolved; a failure is a WARN once per call, and null. */
  private Object call(String what, Call c, MethodHandle... needed) {
    if (state == State.ABSENT) {
      return null;
    }
    for (MethodHandle h : needed) {
      if (h == null) {
        return null;
      }
    }
    try {
      return c.call();
    } catch (VirtualMachineError e) {
      throw e;
    } catch (Throwable e) {
      if (warned.add(what)) {
        LOG.warn("Spark is on the class path but {} failed ({}); objectcommit does without it", what,
            e.toString());
      }
      return null;
    }
  }

  /** Resolves classes and single methods, collecting what fails. */
  private static final class Resolver {
    final ClassLoader loader;
    final List<String> problems = new ArrayList<>();
    boolean absent;
    final MethodHandles.Lookup lookup = MethodHandles.publicLookup();

    Resolver(ClassLoader loader) {
      this.loader = loader;
    }

    Class<?> type(String name) {
      try {
        return Class.forName(name, false, loader);
      } catch (ClassNotFoundException e) {
        if (name.equals(SPARK_ENV)) {
          absent = true;
        } else {
          problems.add(name + " not found");
        }
      } catch (LinkageError e) {
        problems.add(name + ": " + e);
      }
      return null;
    }

    MethodHandle staticMethod(Class<?> owner, String name, Class<?> returns, Class<?>... params) {
      if (owner == null || returns == null) {
        return null;
      }
      try {
        return lookup.findStatic(owner, name, MethodType.methodType(returns, params));
      } catch (ReflectiveOperationException | LinkageError | SecurityException e) {
        problems.add(owner.getName() + "." + name + ": " + e);
        return null;
      }
    }

    MethodHandle method(Class<?> owner, String name, Class<?> returns, Class<?>... params) {
      if (owner == null || returns == null) {
        return null;
      }
      try {
        return lookup.findVirtual(owner, name, MethodType.methodType(returns, params));
      } catch (ReflectiveOperationException | LinkageError | SecurityException e) {
        problems.add(owner.getName() + "." + name + ": " + e);
        return null;
      }
    }

    /** A method of a Scala object ({@code Name$.MODULE$}), bound to the object. */
    MethodHandle objectMethod(Class<?> object, String name, Class<?> returns) {
      if (object == null || returns == null) {
        return null;
      }
      try {
        Object module = lookup.findStaticGetter(object, "MODULE$", object).invoke();
        return lookup.findVirtual(object, name, MethodType.methodType(returns)).bindTo(module);
      } catch (VirtualMachineError e) {
        throw e;
      } catch (Throwable e) {
        problems.add(object.getName() + "." + name + ": " + e);
        return null;
      }
    }
  }

  @Override
  public String toString() {
    return "SparkRuntime{" + state + (problems.isEmpty() ? "" : ", " + problems) + "}";
  }
}
