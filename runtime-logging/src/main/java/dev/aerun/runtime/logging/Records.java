package dev.aerun.runtime.logging;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Optional;
import java.util.logging.Formatter;
import java.util.logging.LogRecord;

/** What both formats take from a {@link LogRecord}: its message text and where it was logged. */
final class Records {
  /** Only for {@link Formatter#formatMessage}: parameters and resource bundles, as JUL does. */
  private static final Formatter MESSAGES =
      new Formatter() {
        @Override
        public String format(LogRecord record) {
          return formatMessage(record);
        }
      };

  private static final StackWalker WALKER = StackWalker.getInstance();

  private Records() {}

  /** See {@link RuntimeLogs#briefExceptions}. */
  static volatile boolean briefExceptions;

  /** The exception and its causes on one line: {@code A: why (caused by B: why)}. */
  static String brief(Throwable thrown) {
    StringBuilder out = new StringBuilder();
    int depth = 0;
    for (Throwable t = thrown; t != null && depth < 8; t = t.getCause(), depth++) {
      if (depth > 0) {
        out.append(" (caused by ");
      }
      out.append(t.getClass().getSimpleName());
      if (t.getMessage() != null) {
        out.append(": ").append(t.getMessage().replaceAll("\\s+", " ").strip());
      }
      if (t.getCause() == t) {
        break;
      }
    }
    out.append(")".repeat(Math.max(0, depth - 1)));
    return out.toString();
  }

  /** The message with its parameters filled in, then the stack trace of its exception, if any. */
  static String messageWithStackTrace(LogRecord record) {
    String message = MESSAGES.formatMessage(record);
    Throwable thrown = record.getThrown();
    if (thrown == null) {
      return message == null ? "" : message;
    }
    if (briefExceptions) {
      return (message == null || message.isEmpty() ? "" : message + ": ") + brief(thrown);
    }
    StringWriter trace = new StringWriter(1024);
    if (message != null && !message.isEmpty()) {
      trace.append(message).append('\n');
    }
    try (PrintWriter out = new PrintWriter(trace)) {
      thrown.printStackTrace(out);
    }
    // No trailing newline: a log line's end is the format's business.
    int end = trace.getBuffer().length();
    while (end > 0 && Character.isWhitespace(trace.getBuffer().charAt(end - 1))) {
      end--;
    }
    return trace.getBuffer().substring(0, end);
  }

  /**
   * Where the record was logged: the frame of the current thread's stack that JUL named as its
   * source (its class and method), with file and line. Empty when the record names no source or the
   * frame is not on this thread's stack (a record published on another thread).
   */
  static Optional<StackWalker.StackFrame> sourceFrame(LogRecord record) {
    String className = record.getSourceClassName();
    String methodName = record.getSourceMethodName();
    if (className == null || methodName == null) {
      return Optional.empty();
    }
    return WALKER.walk(
        frames ->
            frames
                .filter(
                    f -> f.getClassName().equals(className) && f.getMethodName().equals(methodName))
                .findFirst());
  }
}
