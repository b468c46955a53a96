package io.objectcommit.store.impl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Requests flow one way: {@link S3ObjectStore}, then {@link ConditionalWrites} / {@link MultipartWriter}, then
 * {@link S3Requests}, then the SDK client. No lower class holds, receives or returns an upper one. The guarantee
 * check is above the whole request path, a client of the store: nothing in {@code impl} refers to it.
 */
class RequestLayeringTest {

  private static List<Class<?>> typesUsedBy(Class<?> c) {
    List<Class<?>> used = new ArrayList<>();
    for (Field f : c.getDeclaredFields()) {
      used.add(f.getType());
    }
    for (Constructor<?> k : c.getDeclaredConstructors()) {
      used.addAll(List.of(k.getParameterTypes()));
    }
    for (Method m : c.getDeclaredMethods()) {
      used.addAll(List.of(m.getParameterTypes()));
      used.add(m.getReturnType());
    }
    return used;
  }

  private static void assertUsesNone(Class<?> lower, Set<Class<?>> upper) {
    for (Class<?> t : typesUsedBy(lower)) {
      assertFalse(upper.contains(t), lower.getSimpleName() + " refers up to " + t.getSimpleName());
    }
  }

  @Test
  void theMiddleLayerDoesNotKnowTheStore() {
    assertUsesNone(ConditionalWrites.class, Set.of(S3ObjectStore.class, MultipartWriter.class));
    assertUsesNone(MultipartWriter.class, Set.of(S3ObjectStore.class, ConditionalWrites.class));
  }

  @Test
  void theRequestLayerKnowsNothingAboveIt() {
    assertUsesNone(S3Requests.class, Set.of(S3ObjectStore.class, ConditionalWrites.class, MultipartWriter.class));
    assertUsesNone(Invoker.class, Set.of(S3ObjectStore.class, ConditionalWrites.class, MultipartWriter.class,
        S3Requests.class));
  }

  /** The constants (class names, strings) of a compiled class: what it refers to. */
  private static String constantsOf(Path classFile) throws IOException {
    return new String(Files.readAllBytes(classFile), StandardCharsets.ISO_8859_1);
  }

  @Test
  void nothingInTheRequestPathRefersToTheGuaranteeCheck() throws IOException, URISyntaxException {
    Path impl = Paths.get(S3ObjectStore.class.getResource("S3ObjectStore.class").toURI()).getParent();
    List<Path> classes = classesUnder(impl);
    assertTrue(classes.size() > 40, "impl and its packages (client, auth, v1, v2): " + classes.size() + " classes");
    List<String> referring = new ArrayList<>();
    for (Path c : classes) {
      if (constantsOf(c).contains("io/objectcommit/store/guarantee/")) {
        referring.add(impl.relativize(c).toString());
      }
    }
    assertEquals(List.of(), referring, "classes of impl that refer to the guarantee package");
  }

  /** Every compiled class of the store module under {@code dir} (a package directory), with its packages. */
  private static List<Path> classesUnder(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(f -> f.toString().endsWith(".class")).collect(Collectors.toList());
    }
  }

  /**
   * Everything above the {@link S3Calls} seam (the public API, the guarantee check, the request path, the choice of
   * binding, credentials): written once for both SDKs. Only {@code impl.v1} and {@code impl.v2} know one.
   */
  @Test
  void nothingAboveTheSeamKnowsAnSdk() throws Exception {
    Path impl = Paths.get(S3ObjectStore.class.getResource("S3ObjectStore.class").toURI()).getParent();
    Path root = impl.getParent();
    List<Path> above = classesUnder(root).stream()
        .filter(c -> !c.startsWith(impl.resolve("v1")) && !c.startsWith(impl.resolve("v2")))
        .collect(Collectors.toList());
    assertTrue(above.size() > 60, "the module's classes: " + above.size());
    for (Path c : above) {
      String constants = constantsOf(c);
      assertFalse(constants.contains("com/amazonaws/"), root.relativize(c) + " refers to AWS SDK v1");
      assertFalse(constants.contains("software/amazon/awssdk/"), root.relativize(c) + " refers to AWS SDK v2");
    }
  }
}
