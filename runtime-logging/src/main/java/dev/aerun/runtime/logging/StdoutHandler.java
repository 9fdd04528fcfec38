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

  /**
   * Appends the line for {@code access}, without a line break: the same characters as {@link
   * #format} gives for it, written into a reused buffer.
   */
  abstract void appendAccessLine(StringBuilder line, AccessRecord access);

  /** Each writing thread's buffers for request-log lines, reused from one line to the next. */
  private static final ThreadLocal<LineBuffer> LINE = ThreadLocal.withInitial(LineBuffer::new);

  /** A line longer than this (a huge URL) does not keep its buffers for the next one. */
  private static final int MAX_KEPT_LINE = 16 * 1024;

  private static final String LINE_SEPARATOR = System.lineSeparator();

  /**
   * Writes one request-log line to {@link #out}, on the writer thread (or a flushing one): made in
   * reused buffers and written as UTF-8 bytes, no {@code String} and no encoder per line. One
   * {@code write} of the whole line keeps it whole.
   */
  void writeAccessLine(AccessRecord access) {
    LineBuffer line = LINE.get();
    line.chars.setLength(0);
    appendAccessLine(line.chars, access);
    line.chars.append(LINE_SEPARATOR);
    int length = line.encode(); // may replace line.bytes with a larger array
    out.write(line.bytes, 0, length);
    if (line.chars.capacity() > MAX_KEPT_LINE) {
      LINE.remove();
    }
  }

  /** A line's characters, and the same line in UTF-8. */
  private static final class LineBuffer {
    final StringBuilder chars = new StringBuilder(512);
    byte[] bytes = new byte[1024];

    /** {@link #chars} in UTF-8 into {@link #bytes}; returns the length. */
    int encode() {
      int length = chars.length();
      if (bytes.length < length * 3) {
        bytes = new byte[length * 3];
      }
      int n = 0;
      for (int i = 0; i < length; i++) {
        char c = chars.charAt(i);
        if (c < 0x80) {
          bytes[n++] = (byte) c;
        } else if (c < 0x800) {
          bytes[n++] = (byte) (0xC0 | c >> 6);
          bytes[n++] = (byte) (0x80 | c & 0x3F);
        } else if (Character.isHighSurrogate(c)
            && i + 1 < length
            && Character.isLowSurrogate(chars.charAt(i + 1))) {
          int cp = Character.toCodePoint(c, chars.charAt(++i));
          bytes[n++] = (byte) (0xF0 | cp >> 18);
          bytes[n++] = (byte) (0x80 | cp >> 12 & 0x3F);
          bytes[n++] = (byte) (0x80 | cp >> 6 & 0x3F);
          bytes[n++] = (byte) (0x80 | cp & 0x3F);
        } else if (Character.isSurrogate(c)) {
          bytes[n++] = '?'; // a lone surrogate, as the JDK's encoder replaces it
        } else {
          bytes[n++] = (byte) (0xE0 | c >> 12);
          bytes[n++] = (byte) (0x80 | c >> 6 & 0x3F);
          bytes[n++] = (byte) (0x80 | c & 0x3F);
        }
      }
      return n;
    }
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
