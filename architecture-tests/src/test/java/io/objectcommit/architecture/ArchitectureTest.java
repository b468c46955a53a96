package io.objectcommit.architecture;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The rules of {@link ArchitectureRules} on objectcommit's own classes (every library module, tests excluded). */
class ArchitectureTest {

  private static final String ROOT = "io.objectcommit";
  private static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    classes = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .withImportOption(location -> !location.contains("/architecture-tests/"))
        .importPackages(ROOT);
  }

  @Test
  void everyComponentIsRead() {
    for (String component : List.of("store", "commit", "checkpoint", "direct", "staging", "delta", "codecs",
        "readcache", "cli")) {
      assertTrue(classes.stream().anyMatch(c -> c.getPackageName().startsWith(ROOT + "." + component)),
          "no class of " + ROOT + "." + component + " on the class path: the rules would not see it");
    }
  }

  @Test
  void componentsUseOnlyTheComponentsBelowThem() {
    ArchitectureRules.layering(ROOT).check(classes);
  }

  @Test
  void noCyclesBetweenComponents() {
    ArchitectureRules.noComponentCycles(ROOT).check(classes);
  }

  @Test
  void awsSdkTypesOnlyInTheirBinding() {
    ArchitectureRules.sdkV1OnlyInItsBinding(ROOT).check(classes);
    ArchitectureRules.sdkV2OnlyInItsBinding(ROOT).check(classes);
  }

  @Test
  void theRequestPathKnowsNoGuaranteeCheck() {
    ArchitectureRules.requestPathKnowsNoGuaranteeCheck(ROOT).check(classes);
  }

  @Test
  void sdkBindingsAreLoadedByNameOnly() {
    for (ArchRule rule : ArchitectureRules.bindingsLoadedByNameOnly(ROOT)) {
      rule.check(classes);
    }
  }

  @Test
  void implPackagesAreUsedOnlyInsideTheirComponent() {
    for (ArchRule rule : ArchitectureRules.implStaysInItsComponent(ROOT)) {
      rule.check(classes);
    }
  }
}
