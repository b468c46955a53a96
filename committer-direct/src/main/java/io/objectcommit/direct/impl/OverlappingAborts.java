package io.objectcommit.direct.impl;

import io.objectcommit.direct.OverlappingAbortException;
import io.objectcommit.direct.files.AttemptEntry;
import io.objectcommit.direct.files.DirectTaskRecord;
import io.objectcommit.store.ObjectStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What a committing attempt checks against the other attempts of its task that abort: both name their files alike,
 * so an abort may delete a key the committing attempt wrote (docs/committer-direct.md, failure analysis).
 */
final class OverlappingAborts {

  private OverlappingAborts() {
  }

  /** The first other attempt still deleting, in its abort, a key of {@code mine}; null when none. */
  private static AttemptEntry pending(DirectTaskRecord r, String attemptId, Set<String> mine) {
    for (AttemptEntry e : r.attempts) {
      if (!e.attempt.equals(attemptId) && e.state == AttemptEntry.State.ABORTING
          && e.files.stream().anyMatch(mine::contains)) {
        return e;
      }
    }
    return null;
  }

  /**
   * Refuses the commit where another attempt's abort deleted, or may still delete, a key this attempt wrote: an
   * abort still deleting; or one that deleted a key whose object is gone now (the upload came first). A key that is
   * there after that abort finished was uploaded after its delete. One HEAD per such key, only after another
   * attempt of the task aborted with keys this one also wrote (a task retry).
   */
  static void check(ObjectStore store, String recordPath, String attemptId, DirectTaskRecord r, Set<String> mine)
      throws IOException {
    AttemptEntry pending = pending(r, attemptId, mine);
    if (pending != null) {
      throw new OverlappingAbortException(recordPath, attemptId, pending.attempt,
          pending.files.stream().filter(mine::contains).collect(Collectors.toList()), true);
    }
    for (AttemptEntry e : r.attempts) {
      if (e.attempt.equals(attemptId) || e.state != AttemptEntry.State.ABORTED) {
        continue;
      }
      List<String> gone = new ArrayList<>();
      for (String k : e.files) {
        if (mine.contains(k) && !store.head(k).isPresent()) {
          gone.add(k);
        }
      }
      if (!gone.isEmpty()) {
        throw new OverlappingAbortException(recordPath, attemptId, e.attempt, gone, false);
      }
    }
  }
}
