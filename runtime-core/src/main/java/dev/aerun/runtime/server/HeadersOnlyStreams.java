package dev.aerun.runtime.server;

import org.eclipse.jetty.http2.HTTP2Connection;
import org.eclipse.jetty.http2.api.Stream;
import org.eclipse.jetty.http2.frames.HeadersFrame;
import org.eclipse.jetty.server.Request;

/**
 * Which HTTP/2 requests ended with their {@code HEADERS} frame ({@code END_STREAM} on it): such a
 * request has no body and no trailers, ever, so the handlers that bound or filter a body need not
 * wrap it. HTTP/2 has no other sign of a bodiless request: a {@code GET} carries no {@code
 * content-length}, which over HTTP/1.1 would mean "no body" and over HTTP/2 means "unknown".
 *
 * <p>Known only for streams opened by the public port's h2c ({@link H2cConnectionFactory} marks
 * them as they open); any other request is not known to be bodiless.
 */
public final class HeadersOnlyStreams {
  private static final String ENDED = HeadersOnlyStreams.class.getName() + ".ended";

  private HeadersOnlyStreams() {}

  /** Marks {@code stream} when the {@code HEADERS} frame that opened it also ended it. */
  static void opened(Stream stream, HeadersFrame frame) {
    if (frame.isEndStream()) {
      stream.setAttribute(ENDED, Boolean.TRUE);
    }
  }

  /**
   * Whether {@code request} is an HTTP/2 stream that ended with its {@code HEADERS} frame: no body
   * and no trailer fields can follow. False when not known (HTTP/1, a stream upgraded from
   * HTTP/1.1, a request not served by the public port).
   */
  public static boolean endedWithHeaders(Request request) {
    if (!(request.getConnectionMetaData().getConnection() instanceof HTTP2Connection http2)) {
      return false;
    }
    int id;
    try {
      id = Integer.parseInt(request.getId());
    } catch (NumberFormatException e) {
      return false;
    }
    Stream stream = http2.getSession().getStream(id);
    return stream != null && stream.getAttribute(ENDED) != null;
  }
}
