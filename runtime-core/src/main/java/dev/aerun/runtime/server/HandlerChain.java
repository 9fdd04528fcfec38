package dev.aerun.runtime.server;

import org.eclipse.jetty.server.Handler;

/** Links handlers into one request path, written top to bottom: the first a request meets first. */
public final class HandlerChain {
  private HandlerChain() {}

  /**
   * Links {@code handlers} in order: each one's next handler is the one after it. A null stands for
   * a handler this configuration does not have, and is skipped.
   *
   * @param handlers wrappers ({@link Handler.Singleton}), all but the last, which may be any
   *     handler
   * @return the first handler
   * @throws IllegalArgumentException if there is none, or a handler that is not a wrapper has one
   *     after it
   */
  public static Handler of(Handler... handlers) {
    Handler first = null;
    Handler previous = null;
    for (Handler handler : handlers) {
      if (handler == null) {
        continue;
      }
      if (previous == null) {
        first = handler;
      } else if (previous instanceof Handler.Singleton wrapper) {
        wrapper.setHandler(handler);
      } else {
        throw new IllegalArgumentException(previous + " is not a wrapper: nothing can follow it");
      }
      previous = handler;
    }
    if (first == null) {
      throw new IllegalArgumentException("no handler");
    }
    return first;
  }
}
