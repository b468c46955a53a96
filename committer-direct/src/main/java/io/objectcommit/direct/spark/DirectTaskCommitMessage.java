package io.objectcommit.direct.spark;

import io.objectcommit.direct.CommittedTaskRecord;
import org.apache.spark.internal.io.FileCommitProtocol;

/**
 * Spark's task commit message (its {@code obj} unchanged, as Spark's job commit reads it) with the direct
 * committer's committed task record beside it.
 */
final class DirectTaskCommitMessage extends FileCommitProtocol.TaskCommitMessage {

  private static final long serialVersionUID = 1L;

  private final CommittedTaskRecord record;

  DirectTaskCommitMessage(Object sparkMessage, CommittedTaskRecord record) {
    super(sparkMessage);
    this.record = record;
  }

  CommittedTaskRecord record() {
    return record;
  }
}
