/**
 * The Delta Lake log store on conditional writes: {@link io.objectcommit.delta.ConditionalPutLogStore} (Delta's
 * public {@code io.delta.storage.LogStore} API), what a Spark application sets to use it
 * ({@link io.objectcommit.delta.DeltaLogStoreConstants}); {@code impl} holds its internals (paths to keys, line
 * reading). Every request goes through the store module's public API.
 */
package io.objectcommit.delta;
