package io.objectcommit.testsupport;

import java.lang.reflect.Method;
import java.util.Optional;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * JUnit 5 extension for integration tests: injects an {@link S3Endpoint} or a fresh {@link S3TestBucket} as a
 * parameter of a test method, {@code @BeforeAll}/{@code @BeforeEach} method or constructor, and prints the tail
 * of the endpoint's log when a test fails.
 *
 * <p>The endpoint is started once per JVM (see {@link S3Endpoints}); a bucket lives as long as the scope that
 * asked for it: a test method's bucket is removed after that test, a {@code @BeforeAll} bucket after the class.
 */
public final class S3Extension implements ParameterResolver, TestWatcher {

  private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(S3Extension.class);
  private static final int LOG_LINES_ON_FAILURE = 80;

  @Override
  public boolean supportsParameter(ParameterContext pc, ExtensionContext ec) {
    Class<?> type = pc.getParameter().getType();
    return type == S3TestBucket.class || type == S3Endpoint.class || type == RunningEndpoint.class;
  }

  @Override
  public Object resolveParameter(ParameterContext pc, ExtensionContext ec) {
    Class<?> type = pc.getParameter().getType();
    RunningEndpoint running = S3Endpoints.shared();
    if (type == RunningEndpoint.class) {
      return running;
    }
    if (type == S3Endpoint.class) {
      return running.endpoint();
    }
    String hint = ec.getTestClass().map(Class::getSimpleName).orElse("test")
        + ec.getTestMethod().map(m -> "-" + m.getName()).orElse("");
    String storeKey = "bucket:" + ec.getUniqueId() + ":" + pc.getIndex() + ":" + executableName(pc);
    return ec.getStore(NS).getOrComputeIfAbsent(storeKey, k -> S3TestBucket.create(running.endpoint(), hint,
        S3TestSettings.fromEnvironment().sharedBucket().orElse(null)), S3TestBucket.class);
  }

  private static String executableName(ParameterContext pc) {
    return pc.getDeclaringExecutable() instanceof Method ? pc.getDeclaringExecutable().getName() : "<init>";
  }

  @Override
  public void testFailed(ExtensionContext ec, Throwable cause) {
    RunningEndpoint running = S3Endpoints.sharedIfStarted();
    if (running == null) {
      return;
    }
    Optional<String> where = running.logFile().map(p -> " (full log: " + p + ")");
    System.err.println("==== " + ec.getDisplayName() + " failed; last " + LOG_LINES_ON_FAILURE
        + " lines of the S3 endpoint's log" + where.orElse("") + " ====");
    System.err.println(running.logTail(LOG_LINES_ON_FAILURE));
    System.err.println("==== end of S3 endpoint log ====");
  }
}
