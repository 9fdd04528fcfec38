package dev.aerun.runtime.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;

/** A stdout that stops reading must not hold up the threads that complete requests. */
class RequestLogQueueTest {
  /** Blocks every write until released, then keeps what was written. */
  private static final class StalledStdout extends OutputStream {
    final CountDownLatch released = new CountDownLatch(1);
    final CountDownLatch blocked = new CountDownLatch(1);
    final ByteArrayOutputStream written = new ByteArrayOutputStream();

    @Override
    public void write(int b) {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) {
      blocked.countDown();
      try {
        released.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      synchronized (written) {
        written.write(b, off, len);
      }
    }

    List<String> lines() {
      synchronized (written) {
        return List.of(written.toString(StandardCharsets.UTF_8).split("\n"));
      }
    }
  }

  private static AccessRecord access(int n) {
    return new AccessRecord("GET", "/r" + n, 200, 1, 1, null, null, null, null);
  }

  @Test
  void text_stalledStdout_requestLogLinesAreQueuedThenDroppedAndCounted() throws Exception {
    StalledStdout stdout = new StalledStdout();
    check(
        new TextHandler(new PrintStream(stdout, false, StandardCharsets.UTF_8), ZoneOffset.UTC),
        stdout);
  }

  @Test
  void json_stalledStdout_requestLogLinesAreQueuedThenDroppedAndCounted() throws Exception {
    StalledStdout stdout = new StalledStdout();
    check(
        new CloudJsonHandler(new PrintStream(stdout, false, StandardCharsets.UTF_8), null), stdout);
  }

  private static void check(StdoutHandler handler, StalledStdout stdout) throws Exception {
    int extra = 500;
    int total = StdoutHandler.ACCESS_QUEUE_CAPACITY + extra;
    // Every request thread returns although nothing reaches stdout (before, the first one blocked
    // in println for as long as stdout did).
    assertTimeoutPreemptively(
        Duration.ofSeconds(120),
        () -> {
          for (int i = 0; i < total; i++) {
            handler.publish(access(i));
          }
        });
    assertTrue(stdout.blocked.await(60, TimeUnit.SECONDS), "the writer thread never wrote");
    long dropped = handler.droppedAccessLines();
    // The queue holds its capacity and the writer thread one more line in hand.
    assertTrue(dropped >= extra - 1 && dropped <= extra, "dropped " + dropped);

    stdout.released.countDown();
    handler.publish(new LogRecord(Level.WARNING, "a warning is never dropped"));
    handler.flush();

    List<String> lines = stdout.lines();
    long requestLines = lines.stream().filter(l -> l.contains("/r")).count();
    assertEquals(total - dropped, requestLines);
    assertTrue(
        lines.stream().anyMatch(l -> l.contains(dropped + " request-log lines dropped")),
        String.join("\n", lines.subList(Math.max(0, lines.size() - 3), lines.size())));
    assertTrue(lines.stream().anyMatch(l -> l.contains("a warning is never dropped")));
  }
}
