package io.objectcommit.checkpoint.impl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.Abortable;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathIOException;
import org.apache.hadoop.fs.StreamCapabilities;
import org.junit.jupiter.api.Test;

/**
 * The stream of both backends with a recording staging and publication: the bytes reach the publication once,
 * at close, and only if every write succeeded; whatever happens, the staging is freed.
 */
class AtomicOutputStreamTest {

  private static final Path PATH = new Path("ckpt://b/q/offsets/3");

  /** A staging in memory that records what is asked of it. */
  static class RecordingStaging implements Staging<byte[]> {
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int handedOver;
    int discarded;
    IOException failWrites;

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      if (failWrites != null) {
        throw failWrites;
      }
      bytes.write(b, off, len);
    }

    @Override
    public byte[] written() {
      handedOver++;
      return bytes.toByteArray();
    }

    @Override
    public void discard() throws IOException {
      discarded++;
    }
  }

  /** A publication that records what it was given, or fails. */
  static final class RecordingPublication implements Publication<byte[]> {
    final List<byte[]> published = new ArrayList<>();
    IOException failure;

    @Override
    public void publish(byte[] written) throws IOException {
      if (failure != null) {
        throw failure;
      }
      published.add(written);
    }
  }

  private final RecordingStaging staging = new RecordingStaging();
  private final RecordingPublication publication = new RecordingPublication();

  private FSDataOutputStream stream() {
    return AtomicOutputStream.open(PATH, staging, publication);
  }

  @Test
  void closePublishesTheBytesOnceAndFreesTheStaging() throws Exception {
    FSDataOutputStream out = stream();
    out.write('a');
    out.write(new byte[] {'b', 'c'});
    assertEquals(0, publication.published.size(), "nothing before close");
    out.close();
    out.close();
    assertEquals(1, publication.published.size(), "published once");
    assertArrayEquals(new byte[] {'a', 'b', 'c'}, publication.published.get(0));
    assertEquals(1, staging.discarded);
    assertThrows(IOException.class, () -> out.write('d'), "no write after close");
  }

  @Test
  void aFailedPublicationIsReportedAndFreesTheStaging() throws Exception {
    publication.failure = new FileAlreadyExistsException(PATH + " already exists");
    FSDataOutputStream out = stream();
    out.write('a');
    IOException e = assertThrows(IOException.class, out::close);
    assertSame(publication.failure, e, "the publication's own exception, unchanged (Spark catches its type)");
    assertEquals(1, staging.discarded);
    out.close(); // idempotent: no second attempt
    assertEquals(1, staging.handedOver);
  }

  @Test
  void afterAFailedWriteNothingIsPublished() throws Exception {
    FSDataOutputStream out = stream();
    out.write('a');
    staging.failWrites = new IOException("disk full");
    assertThrows(IOException.class, () -> out.write(new byte[] {'b'}));
    PathIOException e = assertThrows(PathIOException.class, out::close);
    assertEquals(PATH.toString(), e.getPath().toString());
    assertSame(staging.failWrites, e.getCause());
    assertEquals(0, publication.published.size(), "incomplete bytes are never published");
    assertEquals(0, staging.handedOver);
    assertEquals(1, staging.discarded);
  }

  @Test
  void abortPublishesNothingFreesTheStagingAndMakesCloseDoNothing() throws Exception {
    FSDataOutputStream out = stream();
    out.write(new byte[] {'a', 'b'});
    Abortable.AbortableResult result = out.abort();
    assertFalse(result.alreadyClosed());
    assertNull(result.anyCleanupException());
    out.close();
    assertEquals(0, publication.published.size());
    assertEquals(0, staging.handedOver);
    assertEquals(1, staging.discarded);
    assertThrows(IOException.class, () -> out.write('c'), "no write after abort");
    assertTrue(out.abort().alreadyClosed(), "a second abort finds it closed");
    assertEquals(1, staging.discarded);
  }

  @Test
  void abortAfterCloseChangesNothing() throws Exception {
    FSDataOutputStream out = stream();
    out.write('a');
    out.close();
    assertTrue(out.abort().alreadyClosed());
    assertEquals(1, publication.published.size(), "the published file stays");
  }

  @Test
  void aStagingThatCannotBeFreedIsInTheAbortResult() throws Exception {
    IOException cannotDelete = new IOException("cannot delete /tmp/ckpt-1.buf");
    FSDataOutputStream out = AtomicOutputStream.open(PATH, new RecordingStaging() {
      @Override
      public void discard() throws IOException {
        throw cannotDelete;
      }
    }, publication);
    Abortable.AbortableResult result = out.abort();
    assertFalse(result.alreadyClosed());
    assertSame(cannotDelete, result.anyCleanupException());
    assertEquals(0, publication.published.size());
  }

  @Test
  void theStreamAndItsWrapperSayTheyAreAbortableAndNothingElse() {
    FSDataOutputStream out = stream();
    assertTrue(out.hasCapability(StreamCapabilities.ABORTABLE_STREAM));
    assertTrue(out.hasCapability("FS.CAPABILITY.OUTPUTSTREAM.ABORTABLE"), "capabilities are case-insensitive");
    assertFalse(out.hasCapability(StreamCapabilities.HFLUSH));
    assertFalse(out.hasCapability(StreamCapabilities.HSYNC));
    assertTrue(out.getWrappedStream() instanceof Abortable, "FSDataOutputStream.abort() passes it on");
  }
}
