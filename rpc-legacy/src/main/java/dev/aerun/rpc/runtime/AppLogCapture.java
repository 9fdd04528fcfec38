package dev.aerun.rpc.runtime;

import dev.aerun.rpc.proto.AppLogLine;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Collects the {@code java.util.logging} records written on a thread while it runs a request, for
 * the {@code UPResponse}'s {@code app_logs}. A handler on the root logger appends each record to
 * the list bound to the current thread; a thread with none bound costs one {@link ThreadLocal} read
 * per record that passed its logger's level.
 *
 * <p>Only the request's own threads are seen: the thread that runs the handler chain and the
 * callbacks Jetty runs there. Lines an app logs from threads of its own are not captured.
 */
final class AppLogCapture extends Handler {
  /** At most this many lines per request: they ride in the response message. */
  static final int MAX_LINES = 1000;

  /** At most this many message characters per request, for the same reason. */
  static final int MAX_CHARS = 4 * 1024 * 1024;

  private static final ThreadLocal<Lines> CURRENT = new ThreadLocal<>();
  private static final AppLogCapture INSTANCE = new AppLogCapture();
  private static int installs;

  private final Formatter formatter =
      new Formatter() {
        @Override
        public String format(LogRecord record) {
          return formatMessage(record);
        }
      };

  private AppLogCapture() {
    setLevel(Level.ALL);
  }

  /** Adds the handler to the root logger; once per running runtime, counted. */
  static synchronized void install() {
    if (installs++ == 0) {
      Logger.getLogger("").addHandler(INSTANCE);
    }
  }

  /** Removes the handler again when the last runtime stops. */
  static synchronized void uninstall() {
    if (installs > 0 && --installs == 0) {
      Logger.getLogger("").removeHandler(INSTANCE);
    }
  }

  /** Binds {@code lines} to this thread; returns what was bound before, to restore after. */
  static Lines bind(Lines lines) {
    Lines previous = CURRENT.get();
    CURRENT.set(lines);
    return previous;
  }

  /** Restores the binding {@link #bind} returned. */
  static void restore(Lines previous) {
    if (previous == null) {
      CURRENT.remove();
    } else {
      CURRENT.set(previous);
    }
  }

  @Override
  public void publish(LogRecord record) {
    Lines lines = CURRENT.get();
    if (lines == null || record == null) {
      return;
    }
    lines.add(record, formatter);
  }

  @Override
  public void flush() {}

  @Override
  public void close() {}

  /** The severity of the proto: 0 debug, 1 info, 2 warning, 3 error, 4 critical. */
  static int severity(Level level) {
    int value = level.intValue();
    if (value < Level.INFO.intValue()) {
      return 0;
    } else if (value < Level.WARNING.intValue()) {
      return 1;
    } else if (value < Level.SEVERE.intValue()) {
      return 2;
    } else if (value == Level.SEVERE.intValue()) {
      return 3;
    }
    return 4; // above SEVERE: only custom levels get here
  }

  /** The lines of one request; closed once its answer is built, so late lines are dropped. */
  static final class Lines {
    private final List<AppLogLine> lines = new ArrayList<>();
    private int chars;
    private int dropped;
    private boolean closed;

    synchronized void add(LogRecord record, Formatter formatter) {
      if (closed) {
        return;
      }
      if (lines.size() >= MAX_LINES || chars >= MAX_CHARS) {
        dropped++;
        return;
      }
      String message = formatter.formatMessage(record);
      if (message == null) {
        message = "";
      }
      Throwable thrown = record.getThrown();
      if (thrown != null) {
        // The app asked for it: its stack trace goes to the app's log, never to a client.
        StringWriter trace = new StringWriter();
        thrown.printStackTrace(new PrintWriter(trace));
        message = message + "\n" + trace;
      }
      if (message.length() > MAX_CHARS - chars) {
        message = message.substring(0, MAX_CHARS - chars);
      }
      chars += message.length();
      Instant instant = record.getInstant();
      lines.add(
          AppLogLine.newBuilder()
              .setTimestampUsec(instant.getEpochSecond() * 1_000_000 + instant.getNano() / 1_000)
              .setLevel(severity(record.getLevel()))
              .setMessage(message)
              .setSourceLocation(record.getLoggerName() == null ? "" : record.getLoggerName())
              .build());
    }

    /** Closes the list and returns its lines, with a note of how many were dropped if any. */
    synchronized List<AppLogLine> close() {
      closed = true;
      if (dropped > 0) {
        lines.add(
            AppLogLine.newBuilder()
                .setTimestampUsec(System.currentTimeMillis() * 1_000)
                .setLevel(2)
                .setMessage(dropped + " more log lines of this request were dropped")
                .setSourceLocation(AppLogCapture.class.getName())
                .build());
        dropped = 0;
      }
      return lines;
    }
  }
}
