package dev.aerun.runtime.logging;

import dev.aerun.runtime.contract.RequestAttributes;
import dev.aerun.runtime.contract.TraceContext;
import dev.aerun.runtime.lifecycle.DrainHandler;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.logging.Logger;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.ConnectionMetaData;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.RequestLog;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.NanoTime;

/**
 * The server's request log ({@code Server.setRequestLog}): one {@link AccessRecord} per completed
 * request on the {@value #LOGGER_NAME} logger, with method, path and query, status, response size,
 * latency, the remote address the app saw, user agent, referer and trace. A request ended at the
 * end of the shutdown grace period is logged with what its client got ({@link
 * DrainHandler.CutOff}): status 0 when the connection closed before any response.
 *
 * <p>Jetty calls it once the response is complete, on whatever thread completed it, so it reads the
 * trace from the request's attributes rather than from {@link RequestTrace}. When the logger is
 * off, it costs one level check.
 */
public final class AccessLog implements RequestLog {
  /** The logger request-log lines are written to. */
  public static final String LOGGER_NAME = "aerun.request";

  /**
   * Request attribute ({@code String}): the client address the app saw, when it is not the
   * connection's peer. {@link RequestTraceHandler} sets it when the contract took the address from
   * {@code X-AppEngine-User-IP}; a server that computes the app's view elsewhere (the legacy front
   * end) sets it itself.
   */
  public static final String REMOTE_ADDRESS_ATTRIBUTE = "dev.aerun.logging.remote_address";

  private final Logger logger;

  public AccessLog() {
    this(Logger.getLogger(LOGGER_NAME));
  }

  AccessLog(Logger logger) {
    this.logger = logger;
  }

  @Override
  public void log(Request request, Response response) {
    int status = response.getStatus();
    long bytes = Response.getContentBytesWritten(response);
    if (request.getAttribute(DrainHandler.CUT_OFF_ATTRIBUTE) instanceof DrainHandler.CutOff cut) {
      // Ended at shutdown: what the client got, not what the app wrote to a closed connection.
      status = cut.status();
      bytes = cut.bytesSent();
    }
    if (!logger.isLoggable(AccessRecord.levelFor(status))) {
      return;
    }
    Object appRemote = request.getAttribute(REMOTE_ADDRESS_ATTRIBUTE);
    Object traceId = request.getAttribute(RequestAttributes.TRACE_ID);
    TraceContext trace =
        traceId instanceof String id ? RequestTraceHandler.traceOf(request, id) : null;
    logger.log(
        new AccessRecord(
            request.getMethod(),
            request.getHttpURI().getPathQuery(),
            status,
            bytes,
            NanoTime.since(request.getBeginNanoTime()),
            appRemote instanceof String address ? address : remoteIp(request),
            request.getHeaders().get(HttpHeader.USER_AGENT),
            request.getHeaders().get(HttpHeader.REFERER),
            trace));
  }

  /** The connection attribute that keeps its peer's {@link #remoteIp}, made once per connection. */
  private static final String CONNECTION_REMOTE_IP = "dev.aerun.logging.connection_remote_ip";

  /**
   * The IP of the connection's peer as Cloud Logging wants it (see {@link #formatRemoteIp}),
   * formatted once per connection. Only for the connection itself: an app's view of the request (a
   * {@code X-AppEngine-User-IP} address) changes per request and must use {@link #formatRemoteIp}.
   */
  static String remoteIp(Request request) {
    ConnectionMetaData connection = request.getConnectionMetaData();
    if (connection.getAttribute(CONNECTION_REMOTE_IP) instanceof String ip) {
      return ip;
    }
    String ip = formatRemoteIp(connection);
    if (ip != null) {
      connection.setAttribute(CONNECTION_REMOTE_IP, ip);
    }
    return ip;
  }

  /**
   * The remote IP of {@code connection} as Cloud Logging wants it: without the brackets Jetty puts
   * around an IPv6 address.
   */
  static String formatRemoteIp(ConnectionMetaData connection) {
    SocketAddress remote = connection.getRemoteSocketAddress();
    if (remote instanceof InetSocketAddress inet) {
      InetAddress address = inet.getAddress();
      return address == null ? inet.getHostString() : address.getHostAddress();
    }
    return remote == null ? null : remote.toString();
  }
}
