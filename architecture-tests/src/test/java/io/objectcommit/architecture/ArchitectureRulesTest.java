package io.objectcommit.architecture;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Each rule of {@link ArchitectureRules} fails on the planted violations of package {@code planted} (and names
 * them), and lets the allowed dependencies there pass: the rules can fail.
 */
class ArchitectureRulesTest {

  private static final String ROOT = "io.objectcommit.architecture.planted";
  private static JavaClasses planted;

  @BeforeAll
  static void importPlanted() {
    planted = new ClassFileImporter().importPackages(ROOT);
  }

  private static String failure(ArchRule rule) {
    return assertThrows(AssertionError.class, () -> rule.check(planted), rule.getDescription()).getMessage();
  }

  @Test
  void layeringFailsOnTheStoreUsingACommitter() {
    String m = failure(ArchitectureRules.layering(ROOT));
    assertTrue(m.contains("StoreApi") && m.contains("DirectCommitter"), m);
    assertTrue(!m.contains("CommitCommon.store()") && !m.contains("Command.staging()"), "allowed uses: " + m);
  }

  @Test
  void cycleCheckFailsOnTheStoreAndACommitterUsingEachOther() {
    String m = failure(ArchitectureRules.noComponentCycles(ROOT));
    assertTrue(m.contains("store") && m.contains("direct"), m);
  }

  @Test
  void sdkRulesFailOutsideTheBindingsOnly() {
    String v1 = failure(ArchitectureRules.sdkV1OnlyInItsBinding(ROOT));
    assertTrue(v1.contains("CheckpointThing") && !v1.contains("V1Binding"), v1);
    String v2 = failure(ArchitectureRules.sdkV2OnlyInItsBinding(ROOT));
    assertTrue(v2.contains("StagingThing"), v2);
  }

  @Test
  void requestPathRuleFailsOnTheRequestPathUsingTheCheck() {
    String m = failure(ArchitectureRules.requestPathKnowsNoGuaranteeCheck(ROOT));
    assertTrue(m.contains("Request") && m.contains("Check"), m);
  }

  @Test
  void bindingRuleFailsOnTheRequestPathNamingABindingClass() {
    String m = failure(ArchitectureRules.bindingsLoadedByNameOnly(ROOT).get(0));
    assertTrue(m.contains("Request") && m.contains("V1Binding"), m);
  }

  @Test
  void implRuleFailsOnACommitterUsingTheStoresRequestPath() {
    List<ArchRule> rules = ArchitectureRules.implStaysInItsComponent(ROOT);
    ArchRule storeImpl = rules.stream().filter(r -> r.getDescription().contains(ROOT + ".store.impl"))
        .findFirst().orElseThrow();
    String m = failure(storeImpl);
    assertTrue(m.contains("DirectCommitter") && m.contains("Request"), m);
  }
}
