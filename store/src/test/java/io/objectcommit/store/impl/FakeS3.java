package io.objectcommit.store.impl;

import com.amazonaws.services.s3.AmazonS3;
import com.amazonaws.services.s3.model.AmazonS3Exception;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A scripted {@link AmazonS3} for unit tests: for each SDK method name, a queue of answers (a value, or an
 * exception to throw); the last answer repeats. Records every call with its arguments. No network. Public for the
 * tests of the guarantee policy, which run it behind the S3 store.
 */
public final class FakeS3 implements InvocationHandler {

  /** One answer: compute a result from the call's arguments, or throw. */
  @FunctionalInterface
  public interface Answer {
    Object answer(Object[] args) throws Exception;
  }

  /** A recorded call. */
  static final class Call {
    final String method;
    final Object[] args;

    Call(String method, Object[] args) {
      this.method = method;
      this.args = args;
    }
  }

  private final Map<String, Deque<Answer>> script = new HashMap<>();
  final List<Call> calls = new ArrayList<>();

  public AmazonS3 client() {
    return (AmazonS3) Proxy.newProxyInstance(AmazonS3.class.getClassLoader(), new Class<?>[] {AmazonS3.class}, this);
  }

  /** Queues answers for a method; the last one repeats. */
  public FakeS3 on(String method, Answer... answers) {
    Deque<Answer> q = script.computeIfAbsent(method, m -> new ArrayDeque<>());
    for (Answer a : answers) {
      q.addLast(a);
    }
    return this;
  }

  /** Replaces the answers of a method. */
  public FakeS3 replace(String method, Answer... answers) {
    script.remove(method);
    return on(method, answers);
  }

  public static Answer value(Object v) {
    return args -> v;
  }

  public static Answer fail(int status, String code) {
    return args -> {
      throw serviceError(status, code);
    };
  }

  public static Answer fail(RuntimeException e) {
    return args -> {
      throw e;
    };
  }

  static AmazonS3Exception serviceError(int status, String code) {
    AmazonS3Exception e = new AmazonS3Exception("fake " + code);
    e.setStatusCode(status);
    e.setErrorCode(code);
    e.setRequestId("req-1");
    return e;
  }

  public long count(String method) {
    return calls.stream().filter(c -> c.method.equals(method)).count();
  }

  public <T> List<T> requests(String method, Class<T> type) {
    List<T> out = new ArrayList<>();
    for (Call c : calls) {
      if (c.method.equals(method) && c.args != null && c.args.length > 0 && type.isInstance(c.args[0])) {
        out.add(type.cast(c.args[0]));
      }
    }
    return out;
  }

  @Override
  public synchronized Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
    if (method.getDeclaringClass() == Object.class) {
      return method.invoke(this, args);
    }
    calls.add(new Call(method.getName(), args));
    Deque<Answer> q = script.get(method.getName());
    if (q == null || q.isEmpty()) {
      throw new UnsupportedOperationException("FakeS3: no answer scripted for " + method.getName());
    }
    Answer a = q.size() > 1 ? q.removeFirst() : q.peekFirst();
    return a.answer(args);
  }
}
