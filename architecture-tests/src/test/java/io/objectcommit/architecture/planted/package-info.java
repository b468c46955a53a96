/**
 * A small copy of objectcommit's package layout with deliberate violations of every rule in
 * {@code ArchitectureRules}, so that {@code ArchitectureRulesTest} can show each rule failing. Never used otherwise.
 */
package io.objectcommit.architecture.planted;
