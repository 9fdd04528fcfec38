package dev.aerun.testing;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.http2.api.Session;
import org.eclipse.jetty.http2.api.Stream;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.frames.GoAwayFrame;
import org.eclipse.jetty.http2.frames.HeadersFrame;
import org.eclipse.jetty.http2.frames.PingFrame;
import org.eclipse.jetty.http2.frames.ResetFrame;
import org.eclipse.jetty.http2.frames.SettingsFrame;
import org.eclipse.jetty.util.Callback;

/**
 * HTTP/2 sessions of Jetty's low-level {@link HTTP2Client} that a test may open streams on at once.
 *
 * <p>{@link HTTP2Client#connect} completes before the server's {@code SETTINGS} frame arrived, and
 * a stream opened then races with it. Jetty 12.1.7's client registers a new stream, then gives it
 * the initial send window; when the server's {@code SETTINGS} ({@code INITIAL_WINDOW_SIZE}) are
 * applied between the two, the stream gets the window's increase twice: 983,041 bytes to send
 * instead of the 524,288 the runtime's h2c grants. The client then sends more than the stream may
 * take and the server, as RFC 9113 requires, fails the connection with {@code FLOW_CONTROL_ERROR}:
 * a large upload answered with a reset, now and then. Jetty's own {@code HttpClient} uses a
 * connection only once the server's {@code SETTINGS} came; {@link #connect} does the same.
 */
public final class Http2Sessions {
  private Http2Sessions() {}

  /**
   * Connects {@code client} to {@code address} and returns the session once the server's {@code
   * SETTINGS} frame has been applied to it, so streams opened now get the server's windows.
   *
   * @param listener the session's listener; every callback reaches it as it would without this
   * @throws TimeoutException when the connection or the server's settings take over {@code timeout}
   */
  public static Session connect(
      HTTP2Client client, InetSocketAddress address, Session.Listener listener, Duration timeout)
      throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    SettingsFirst settingsFirst = new SettingsFirst(listener);
    Session session =
        client.connect(address, settingsFirst).get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    try {
      // One bound for both waits, as the contract says.
      settingsFirst.settings.get(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      session.close(0, "no SETTINGS from the server", Callback.NOOP);
      throw new TimeoutException(
          "the server at " + address + " sent no SETTINGS within " + timeout.toMillis() + " ms");
    }
    return session;
  }

  /**
   * Passes every callback on to the test's listener, and completes {@link #settings} once Jetty
   * applied the server's first {@code SETTINGS} (it notifies the listener after applying them).
   */
  private static final class SettingsFirst implements Session.Listener {
    final CompletableFuture<Void> settings = new CompletableFuture<>();
    private final Session.Listener listener;

    SettingsFirst(Session.Listener listener) {
      this.listener = listener;
    }

    @Override
    public Map<Integer, Integer> onPreface(Session session) {
      return listener.onPreface(session);
    }

    @Override
    public Stream.Listener onNewStream(Stream stream, HeadersFrame frame) {
      return listener.onNewStream(stream, frame);
    }

    @Override
    public void onSettings(Session session, SettingsFrame frame) {
      try {
        listener.onSettings(session, frame);
      } finally {
        settings.complete(null);
      }
    }

    @Override
    public void onPing(Session session, PingFrame frame) {
      listener.onPing(session, frame);
    }

    @Override
    public void onReset(Session session, ResetFrame frame) {
      listener.onReset(session, frame);
    }

    @Override
    public void onGoAway(Session session, GoAwayFrame frame) {
      listener.onGoAway(session, frame);
    }

    @Override
    public void onClose(Session session, GoAwayFrame frame, Callback callback) {
      try {
        listener.onClose(session, frame, callback);
      } finally {
        notConnected("the server closed the connection first: " + frame, null);
      }
    }

    @Override
    public boolean onIdleTimeout(Session session) {
      return listener.onIdleTimeout(session);
    }

    @Override
    public void onFailure(Session session, Throwable failure, Callback callback) {
      try {
        listener.onFailure(session, failure, callback);
      } finally {
        notConnected("the connection failed first", failure); // Jetty may pass no failure
      }
    }

    /** Ends a wait for SETTINGS that will not come (no effect once they came). */
    private void notConnected(String why, Throwable cause) {
      settings.completeExceptionally(new IllegalStateException(why, cause));
    }
  }
}
