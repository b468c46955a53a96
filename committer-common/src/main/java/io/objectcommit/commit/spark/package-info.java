/**
 * What the committers' Spark commit protocols share: the task commit message that carries a committed task's record
 * to the driver ({@link io.objectcommit.commit.spark.TaskRecordCommitMessage}).
 */
package io.objectcommit.commit.spark;
