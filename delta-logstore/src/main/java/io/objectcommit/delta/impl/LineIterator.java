package io.objectcommit.delta.impl;

import io.delta.storage.CloseableIterator;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.NoSuchElementException;

/**
 * The lines of a log file (UTF-8, line breaks removed), read as the caller iterates, as Delta's {@code read}
 * asks. Closing it closes the object's stream (early: the rest of the object is not downloaded). A read failure
 * while iterating is an {@link UncheckedIOException} wrapping the store's {@link IOException}.
 */
public final class LineIterator implements CloseableIterator<String> {

  private final BufferedReader reader;
  private final String path;
  private String next;
  private boolean done;

  public LineIterator(InputStream in, String path) {
    this.reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
    this.path = path;
  }

  @Override
  public boolean hasNext() {
    if (next != null) {
      return true;
    }
    if (done) {
      return false;
    }
    try {
      next = reader.readLine();
    } catch (IOException e) {
      throw new UncheckedIOException("reading " + path + ": " + e.getMessage(), e);
    }
    if (next == null) {
      done = true;
      close();
      return false;
    }
    return true;
  }

  @Override
  public String next() {
    if (!hasNext()) {
      throw new NoSuchElementException(path);
    }
    String line = next;
    next = null;
    return line;
  }

  @Override
  public void close() {
    done = true;
    try {
      reader.close();
    } catch (IOException e) {
      // Nothing was lost: every line the caller wanted was read; a failure to close the connection only wastes it.
    }
  }
}
