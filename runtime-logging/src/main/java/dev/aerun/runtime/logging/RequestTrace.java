package dev.aerun.runtime.logging;

import dev.aerun.runtime.contract.TraceContext;

/**
 * The trace of the request the current thread is handling, for the log lines it writes.
 *
 * <p>{@link RequestTraceHandler} sets it for the duration of {@code handle()} on the thread that
 * runs it, which is where Jetty runs the servlet, its filters and its error handling for a
 * synchronous request. Threads the app starts itself, and async servlets resumed on another thread
 * (after {@code startAsync()}), do not see it: code there can read the trace from the request
 * attributes ({@code com.google.appengine.request.trace_id} …) and {@link #set set} it around its
 * own work.
 */
public final class RequestTrace {
  private static final ThreadLocal<TraceContext> CURRENT = new ThreadLocal<>();

  private RequestTrace() {}

  /** The current thread's trace, or null when it is not handling a traced request. */
  public static TraceContext current() {
    return CURRENT.get();
  }

  /**
   * Makes {@code trace} (null for none) the current thread's trace and returns the previous one, to
   * be given back to {@link #restore} in a {@code finally} block.
   */
  public static TraceContext set(TraceContext trace) {
    TraceContext previous = CURRENT.get();
    CURRENT.set(trace);
    return previous;
  }

  /** Restores what {@link #set} returned. */
  public static void restore(TraceContext previous) {
    if (previous == null) {
      CURRENT.remove();
    } else {
      CURRENT.set(previous);
    }
  }
}
