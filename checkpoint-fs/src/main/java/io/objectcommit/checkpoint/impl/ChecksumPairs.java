package io.objectcommit.checkpoint.impl;

import io.objectcommit.checkpoint.files.DirManifest;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a file and its checksum file ({@code NAME} and {@code NAME.crc}) into their directory's manifest in one
 * conditional write when this process closes both at about the same time. Spark 4.1's
 * {@code ChecksumCheckpointFileManager} creates the two streams together and closes them in two threads at once, for
 * every state file; alone, each close costs a manifest write of its own.
 *
 * <p>Each file being written has a {@link Slot} from its creation until its publication ends or its stream is
 * aborted. A publication about to change the manifest while its partner's stream is open hands its change over
 * ("parks" it) and waits: the partner's publication, when it reaches its own manifest change, takes the parked change
 * and writes both in one {@link ManifestStore#update}; each file keeps its own outcome (one may be refused because
 * its name exists while the other is published), and a failure of the write itself is both files' failure. The wait
 * ends without pairing when the partner is released without taking the change (its upload failed, it was aborted),
 * or, while the partner's close has not begun, after the configured bound: then each file is written alone, as
 * without pairing. Nothing about the result differs from two writes one after the other but the request saved: the
 * manifest shows both files or neither of them from the one write.
 *
 * <p>Thread-safe: one monitor guards every slot of the backend (a few slots open at a time per task).
 */
final class ChecksumPairs {

  private static final Logger LOG = LoggerFactory.getLogger(ChecksumPairs.class);

  /** The suffix of a checksum file's name, as Spark 4.1 writes it beside its file. */
  static final String SUFFIX = ".crc";

  private final ManifestStore manifests;
  private final long waitNanos;
  /** The files being written, by directory id and name; a second stream of the same name gets no entry. */
  private final Map<String, Slot> open = new HashMap<>();

  /**
   * @param waitMs how long a publication waits for its partner whose close has not begun (0: files are never paired)
   */
  ChecksumPairs(ManifestStore manifests, long waitMs) {
    this.manifests = manifests;
    this.waitNanos = TimeUnit.MILLISECONDS.toNanos(waitMs);
  }

  /** The partner of a file's name: {@code NAME.crc} for {@code NAME}, and the reverse. */
  static String partnerOf(String name) {
    return name.endsWith(SUFFIX) && name.length() > SUFFIX.length()
        ? name.substring(0, name.length() - SUFFIX.length()) : name + SUFFIX;
  }

  private static String key(String dirId, String name) {
    return dirId + '/' + name;
  }

  /** A new file of directory {@code dirId} being written, until {@link Slot#release()}. */
  synchronized Slot register(String dirId, String name) {
    Slot s = new Slot(dirId, name);
    if (waitNanos > 0 && open.putIfAbsent(key(dirId, name), s) != null) {
      s.pairingDone = true; // another stream of the same name is open: this one never pairs
    }
    return s;
  }

  /** One file being written. Its methods are called by its own publication (one thread at a time). */
  final class Slot {
    private final String dirId;
    private final String name;
    /** Its stream's close began: its publication is under way and ends in a change or a release. */
    private boolean closing;
    private boolean released;
    /**
     * Pairing is over for this file: one of its changes was written with its partner's, or it gave up waiting, or
     * another stream of its name was open. Its later changes (if any) go alone, and its partner does not wait for it.
     */
    private boolean pairingDone;
    /** Its change, waiting for the partner to write it; null when none waits. */
    private Parked<?> parked;

    private Slot(String dirId, String name) {
      this.dirId = dirId;
      this.name = name;
    }

    /** The file's publication began. */
    void closing() {
      synchronized (ChecksumPairs.this) {
        closing = true;
        ChecksumPairs.this.notifyAll();
      }
    }

    /** The file's publication ended (either way) or its stream was abandoned: the partner no longer waits for it. */
    void release() {
      synchronized (ChecksumPairs.this) {
        released = true;
        open.remove(key(dirId, name), this);
        ChecksumPairs.this.notifyAll();
      }
    }

    /**
     * Applies {@code change} to this file's directory manifest ({@link ManifestStore#update}), together with the
     * partner's change when the partner is being published at the same time.
     *
     * @param createdAs the directory's path, for messages
     * @param fence this file's fence
     */
    <R> R update(String createdAs, Fence fence, ManifestStore.Change<R> change) throws IOException {
      Parked<?> theirs = null;
      Parked<R> mine = null;
      synchronized (ChecksumPairs.this) {
        Slot partner = pairingDone ? null : open.get(key(dirId, partnerOf(name)));
        if (partner != null && !partner.pairingDone) {
          if (partner.parked == null) {
            mine = new Parked<>(change, fence);
            parked = mine;
            ChecksumPairs.this.notifyAll();
            if (!awaitPartner(partner, mine, createdAs)) {
              mine = null; // not taken: written alone below
            }
          } else if (Objects.equals(partner.parked.fence.owner(), fence.owner())) {
            theirs = partner.parked;
            theirs.taken = true;
            pairingDone = true;
            partner.pairingDone = true;
          } else {
            pairingDone = true; // written under another owner's stamp: each alone; the partner stops waiting
            ChecksumPairs.this.notifyAll();
          }
        }
      }
      if (mine != null) {
        return mine.outcome();
      }
      if (theirs == null) {
        return manifests.update(dirId, createdAs, fence, change);
      }
      return writeBoth(createdAs, fence, change, theirs);
    }

    /**
     * Waits (holding the monitor, which {@code wait} releases) until the partner takes {@code mine} and has written
     * it, or is released without taking it, or, while the partner's close has not begun, the bound passes.
     *
     * @return whether the partner took the change (its outcome is then in {@code mine})
     */
    private boolean awaitPartner(Slot partner, Parked<?> mine, String createdAs) throws InterruptedIOException {
      long deadline = System.nanoTime() + waitNanos;
      boolean interrupted = false;
      try {
        while (!mine.taken) {
          long left = deadline - System.nanoTime();
          if (partner.released || partner.pairingDone || (!partner.closing && left <= 0)) {
            parked = null;
            pairingDone = true;
            LOG.debug("{} in {}: written without {}", name, createdAs, partner.name);
            return false;
          }
          try {
            // A closing partner ends in a take or a release, each of which wakes this thread.
            ChecksumPairs.this.wait(partner.closing ? 0 : Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
          } catch (InterruptedException e) {
            if (!mine.taken) {
              parked = null;
              pairingDone = true;
              Thread.currentThread().interrupt();
              throw new InterruptedIOException("interrupted while " + name + " in " + createdAs + " waited for "
                  + partner.name + " to be published with it; " + name + " is not published");
            }
            interrupted = true;
          }
        }
        // Taken: the partner's thread is writing it, and the outcome decides whether it is published.
        while (!mine.done) {
          try {
            ChecksumPairs.this.wait();
          } catch (InterruptedException e) {
            interrupted = true;
          }
        }
        parked = null;
        pairingDone = true;
        return true;
      } finally {
        if (interrupted) {
          Thread.currentThread().interrupt();
        }
      }
    }

    /** Writes this file's change and the partner's parked one in one manifest update; hands the partner its outcome. */
    private <R> R writeBoth(String createdAs, Fence fence, ManifestStore.Change<R> change, Parked<?> theirs)
        throws IOException {
      Parked<R> own = new Parked<>(change, fence);
      try {
        manifests.update(dirId, createdAs, fence.and(theirs.fence), m -> {
          theirs.applyTo(m);
          own.applyTo(m);
          return null;
        });
      } catch (IOException | RuntimeException e) {
        // The write failed or was refused (fenced, conflicts exhausted): neither change is known to be applied.
        theirs.failAll(e);
        finish(theirs);
        throw e;
      }
      finish(theirs);
      LOG.debug("{} and {} in {}: one manifest write", name, partnerOf(name), createdAs);
      return own.outcome();
    }

    private void finish(Parked<?> theirs) {
      synchronized (ChecksumPairs.this) {
        theirs.done = true;
        ChecksumPairs.this.notifyAll();
      }
    }
  }

  /**
   * A change of one file, to be applied to a manifest with another, and its own outcome: the change's result or the
   * failure it raised (a refusal of this file alone, such as its name existing), or the failure of the write.
   */
  private static final class Parked<R> {
    final ManifestStore.Change<R> change;
    final Fence fence;
    /** Guarded by the {@link ChecksumPairs} monitor. */
    boolean taken;
    boolean done;
    private R result;
    private Throwable failure;

    Parked(ManifestStore.Change<R> change, Fence fence) {
      this.change = change;
      this.fence = fence;
    }

    /** Applies the change to one attempt's copy of the manifest (the update may retry: each attempt starts anew). */
    void applyTo(DirManifest editable) {
      try {
        result = change.apply(editable);
        failure = null;
      } catch (IOException | RuntimeException e) {
        result = null;
        failure = e; // refused before changing anything: the other file's change still goes ahead
      }
    }

    void failAll(Throwable writeFailure) {
      result = null;
      failure = writeFailure;
    }

    R outcome() throws IOException {
      if (failure instanceof IOException) {
        throw (IOException) failure;
      }
      if (failure != null) {
        throw (RuntimeException) failure;
      }
      return result;
    }
  }
}
