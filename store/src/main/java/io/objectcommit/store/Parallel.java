package io.objectcommit.store;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** A fixed pool of daemon threads for store requests, with "run all, wait for all, rethrow the first failure". */
public final class Parallel implements AutoCloseable {

  /** Work that may fail with an IOException. */
  public interface IoTask<T> {
    T run() throws IOException;
  }

  private final ExecutorService pool;

  public Parallel(String name, int threads) {
    AtomicInteger n = new AtomicInteger();
    ThreadFactory tf = r -> {
      Thread t = new Thread(r, name + "-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
    this.pool = threads <= 1 ? null : Executors.newFixedThreadPool(threads, tf);
  }

  /**
   * Runs every task and waits for all of them, even after a failure (so that nothing runs on behind the caller's
   * back); then throws the first failure, with the others suppressed.
   */
  public <T> List<T> runAll(List<? extends IoTask<T>> tasks) throws IOException {
    List<T> results = new ArrayList<>(tasks.size());
    IOException first = null;
    if (pool == null) {
      for (IoTask<T> t : tasks) {
        try {
          results.add(t.run());
        } catch (IOException | RuntimeException e) {
          first = addFailure(first, e);
          results.add(null);
        }
      }
    } else {
      List<Future<T>> futures = new ArrayList<>(tasks.size());
      for (IoTask<T> t : tasks) {
        futures.add(pool.submit(t::run));
      }
      for (Future<T> f : futures) {
        try {
          results.add(f.get());
        } catch (ExecutionException e) {
          first = addFailure(first, e.getCause());
          results.add(null);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          futures.forEach(x -> x.cancel(true));
          InterruptedIOException ie = new InterruptedIOException("interrupted");
          ie.initCause(e);
          throw ie;
        }
      }
    }
    if (first != null) {
      throw first;
    }
    return results;
  }

  private static IOException addFailure(IOException first, Throwable t) {
    if (first == null) {
      if (t instanceof IOException) {
        return (IOException) t;
      }
      if (t instanceof UncheckedIOException) {
        return ((UncheckedIOException) t).getCause();
      }
      return new IOException(String.valueOf(t), t);
    }
    first.addSuppressed(t);
    return first;
  }

  @Override
  public void close() {
    if (pool != null) {
      pool.shutdownNow();
    }
  }
}
