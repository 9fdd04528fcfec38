package dev.aerun.runtime.logging;

import dev.aerun.runtime.contract.TraceContext;
import java.io.PrintStream;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.logging.ErrorManager;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;

/**
 * What the two output formats share: one line per record on a {@link PrintStream}, and the request
 * log kept off the request path.
 *
 * <p>A request-log line ({@link AccessRecord}) is logged on the thread that completed the request
 * (in legacy mode over TCP, possibly gRPC's event loop), and stdout may be slow or stalled (a full
 * pipe). So those records go into a bounded queue that a writer thread of the handler's own formats
 * and writes; when the queue is full the record is dropped and counted, and the count is reported
 * on a warning line once the writer catches up. Every other record (the app's lines, warnings,
 * errors) is written on the logging thread and never dropped.
 */
abstract class StdoutHandler extends Handler {
  /** How many request-log lines may wait for a slow stdout before new ones are dropped. */
  static final int ACCESS_QUEUE_CAPACITY = 8192;

  /** How long {@link #flush()} waits for queued request-log lines to be written. */
  static final long FLUSH_WAIT_MILLIS = 5000;

  protected final PrintStream out;
  private final BlockingQueue<AccessRecord> accessLines =
      new ArrayBlockingQueue<>(ACCESS_QUEUE_CAPACITY);
  private final AtomicLong queued = new AtomicLong();
  private final AtomicLong written = new AtomicLong();
  private final AtomicLong dropped = new AtomicLong();
  private final AtomicLong droppedReported = new AtomicLong();
  private final Object writerLock = new Object();
  private Thread writer; // guarded by writerLock; started with the first request-log line

  StdoutHandler(PrintStream out) {
    this.out = Objects.requireNonNull(out, "out");
    setLevel(Level.ALL); // the loggers' levels decide
  }

  /** The line for {@code record}; {@code threadTrace} is the publishing thread's trace. */
  abstract String format(LogRecord record, TraceContext threadTrace);

  /** Writes one request-log line to {@link #out}; on the writer thread (or a flushing one). */
  void writeAccessLine(AccessRecord access) {
    out.println(format(access, null));
  }

  @Override
  public void publish(LogRecord record) {
    if (!isLoggable(record)) {
      return;
    }
    if (record instanceof AccessRecord access) {
      if (accessLines.offer(access)) {
        queued.incrementAndGet();
      } else {
        dropped.incrementAndGet();
      }
      startWriter();
      return;
    }
    String line;
    try {
      line = format(record, RequestTrace.current());
    } catch (RuntimeException e) {
      reportError("cannot format a log record", e, ErrorManager.FORMAT_FAILURE);
      return;
    }
    out.println(line);
    if (RuntimeLogs.flushesAtOnce(record)) {
      out.flush();
    }
  }

  /** How many request-log lines were dropped because stdout could not keep up. */
  long droppedAccessLines() {
    return dropped.get();
  }

  private void startWriter() {
    synchronized (writerLock) {
      if (writer != null) {
        return;
      }
      writer = new Thread(this::writeAccessLines, "aerun-request-log");
      writer.setDaemon(true); // close() and flush() wait for what is queued
      writer.start();
    }
  }

  private void writeAccessLines() {
    while (true) {
      AccessRecord access;
      try {
        access = accessLines.take();
      } catch (InterruptedException e) {
        return;
      }
      write(access);
      written.incrementAndGet();
    }
  }

  /**
   * Waits until the writer thread wrote the request-log lines queued so far, for at most {@value
   * #FLUSH_WAIT_MILLIS} ms (stdout may be stalled).
   */
  private void awaitWriter() {
    long target = queued.get();
    long deadline = System.nanoTime() + FLUSH_WAIT_MILLIS * 1_000_000;
    while (written.get() < target && System.nanoTime() - deadline < 0) {
      LockSupport.parkNanos(1_000_000);
    }
  }

  private void write(AccessRecord access) {
    try {
      writeAccessLine(access);
    } catch (RuntimeException e) {
      reportError("cannot write a request-log line", e, ErrorManager.WRITE_FAILURE);
    }
    reportDropped();
  }

  /** Once the writer has room again, says how many lines were dropped since the last report. */
  private void reportDropped() {
    long total = dropped.get();
    long reported = droppedReported.get();
    if (total > reported && droppedReported.compareAndSet(reported, total)) {
      LogRecord warning =
          new LogRecord(
              Level.WARNING,
              (total - reported)
                  + " request-log lines dropped: stdout did not keep up ("
                  + total
                  + " in all)");
      warning.setLoggerName(AccessLog.LOGGER_NAME);
      publish(warning);
    }
  }

  /**
   * Lets the request-log lines queued so far be written (see {@link #awaitWriter}), then flushes.
   */
  @Override
  public void flush() {
    awaitWriter();
    out.flush();
  }

  @Override
  public void close() {
    flush();
  }
}
