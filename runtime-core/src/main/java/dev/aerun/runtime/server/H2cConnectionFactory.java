package dev.aerun.runtime.server;

import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.MetaData;
import org.eclipse.jetty.http2.api.Stream;
import org.eclipse.jetty.http2.api.server.ServerSessionListener;
import org.eclipse.jetty.http2.frames.HeadersFrame;
import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConfiguration;

/**
 * Jetty's h2c, with the HTTP/1.1 {@code Upgrade: h2c} path optional: with it off, only a connection
 * that starts with HTTP/2's preface (prior knowledge) speaks HTTP/2, and a request asking to
 * upgrade is answered over HTTP/1.1 as if it had not asked. Streams that end with their {@code
 * HEADERS} frame are marked for {@link HeadersOnlyStreams}.
 */
final class H2cConnectionFactory extends HTTP2CServerConnectionFactory {
  private final boolean upgrade;

  /**
   * @param http the same configuration as the port's HTTP/1.1 (header size limit included)
   * @param upgrade whether an HTTP/1.1 {@code Upgrade: h2c} request may switch its connection
   */
  H2cConnectionFactory(HttpConfiguration http, boolean upgrade) {
    super(http);
    this.upgrade = upgrade;
  }

  @Override
  public Connection upgradeConnection(
      Connector connector, EndPoint endPoint, MetaData.Request request, HttpFields.Mutable response)
      throws HttpException.RuntimeException {
    // Jetty hands prior knowledge here too, as a PRI request.
    if (!upgrade && !HttpMethod.PRI.is(request.getMethod())) {
      return null;
    }
    return super.upgradeConnection(connector, endPoint, request, response);
  }

  @Override
  protected ServerSessionListener newSessionListener(Connector connector, EndPoint endPoint) {
    return new MarkingListener(endPoint);
  }

  /** Jetty's listener, marking bodiless streams before Jetty hands them to the handlers. */
  private final class MarkingListener extends HTTPServerSessionListener {
    MarkingListener(EndPoint endPoint) {
      super(endPoint);
    }

    @Override
    public Stream.Listener onNewStream(Stream stream, HeadersFrame frame) {
      HeadersOnlyStreams.opened(stream, frame);
      return super.onNewStream(stream, frame);
    }
  }
}
