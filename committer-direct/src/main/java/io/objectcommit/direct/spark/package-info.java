/**
 * The direct committer's Spark commit protocol: Spark's default one, carrying task records to the driver.
 */
package io.objectcommit.direct.spark;
