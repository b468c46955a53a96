package io.objectcommit.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.lang.ArchRule;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The rules the build checks on objectcommit's classes, each a function of the root package, so that
 * {@link ArchitectureRulesTest} can run the same rules on a small planted copy of the layout and see them fail.
 *
 * <p>Components (package roots under {@code root}): {@code store} (the object store client, the only code that
 * talks to S3), {@code commit} (what both committers share), {@code checkpoint} (the checkpoint FileSystem and the
 * checkpoint manager shims), {@code direct} and {@code staging} (the committers), {@code delta} (the Delta Lake log
 * store), {@code codecs} (the text codecs, and the recompression of objects over the store), {@code readcache} (the
 * read cache, over the store), {@code cli} (the command).
 */
final class ArchitectureRules {

  private ArchitectureRules() {
  }

  /** Components may use only the components below them; nothing uses the command. */
  static ArchRule layering(String root) {
    return layeredArchitecture().consideringOnlyDependenciesInAnyPackage(root + "..")
        .layer("store").definedBy(root + ".store..")
        .layer("commit").definedBy(root + ".commit..")
        .layer("checkpoint").definedBy(root + ".checkpoint..")
        .layer("direct").definedBy(root + ".direct..")
        .layer("staging").definedBy(root + ".staging..")
        .layer("delta").definedBy(root + ".delta..")
        .layer("codecs").definedBy(root + ".codecs..")
        .layer("readcache").definedBy(root + ".readcache..")
        .layer("cli").definedBy(root + ".cli..")
        .whereLayer("cli").mayNotBeAccessedByAnyLayer()
        .whereLayer("staging").mayOnlyBeAccessedByLayers("cli")
        .whereLayer("delta").mayOnlyBeAccessedByLayers("cli")
        .whereLayer("codecs").mayOnlyBeAccessedByLayers("cli")
        .whereLayer("readcache").mayOnlyBeAccessedByLayers("cli")
        .whereLayer("direct").mayOnlyBeAccessedByLayers("cli")
        .whereLayer("checkpoint").mayOnlyBeAccessedByLayers("cli")
        .whereLayer("commit").mayOnlyBeAccessedByLayers("direct", "staging", "cli")
        .whereLayer("store").mayOnlyBeAccessedByLayers("commit", "checkpoint", "direct", "staging", "delta",
            "codecs", "readcache", "cli")
        .as("components use only the components below them (store < commit < checkpoint, direct, staging < cli;"
            + " store < delta < cli; store < codecs < cli; store < readcache < cli)");
  }

  /** AWS SDK v1 types only in the store's v1 binding. */
  static ArchRule sdkV1OnlyInItsBinding(String root) {
    return noClasses().that().resideInAPackage(root + "..")
        .and().resideOutsideOfPackage(root + ".store.impl.v1..")
        .should().dependOnClassesThat().resideInAPackage("com.amazonaws..")
        .as("AWS SDK v1 types (com.amazonaws) are used only in " + root + ".store.impl.v1");
  }

  /** AWS SDK v2 types only in the store's v2 binding. */
  static ArchRule sdkV2OnlyInItsBinding(String root) {
    return noClasses().that().resideInAPackage(root + "..")
        .and().resideOutsideOfPackage(root + ".store.impl.v2..")
        .should().dependOnClassesThat().resideInAPackage("software.amazon.awssdk..")
        .as("AWS SDK v2 types (software.amazon.awssdk) are used only in " + root + ".store.impl.v2");
  }

  /** A component's {@code impl} packages are its own: no other component uses them. */
  static List<ArchRule> implStaysInItsComponent(String root) {
    return List.of("store", "commit", "checkpoint", "direct", "staging", "delta", "codecs", "readcache", "cli")
        .stream()
        .map(c -> (ArchRule) noClasses()
            .that(not(resideInAPackage(root + "." + c + "..")))
            .should().dependOnClassesThat().resideInAPackage(root + "." + c + ".impl..")
            .as("no class outside " + root + "." + c + " uses " + root + "." + c + ".impl"))
        .collect(Collectors.toList());
  }

  /** The store's request path sends requests; it knows nothing of the guarantee check, which is its client. */
  static ArchRule requestPathKnowsNoGuaranteeCheck(String root) {
    return noClasses().that().resideInAPackage(root + ".store.impl..")
        .should().dependOnClassesThat().resideInAPackage(root + ".store.guarantee..")
        .as("the store's request path (" + root + ".store.impl) does not use the guarantee check");
  }

  /** An SDK binding is loaded by name: nothing outside it names its classes, so the other SDK never loads. */
  static List<ArchRule> bindingsLoadedByNameOnly(String root) {
    return List.of("v1", "v2").stream()
        .map(v -> (ArchRule) noClasses().that().resideOutsideOfPackage(root + ".store.impl." + v + "..")
            .should().dependOnClassesThat().resideInAPackage(root + ".store.impl." + v + "..")
            .as("nothing outside " + root + ".store.impl." + v + " uses it (bindings are loaded by name)"))
        .collect(Collectors.toList());
  }

  /** No cycles between components. */
  static ArchRule noComponentCycles(String root) {
    return slices().matching(root + ".(*)..").should().beFreeOfCycles()
        .as("no cycles between the components under " + root);
  }
}
