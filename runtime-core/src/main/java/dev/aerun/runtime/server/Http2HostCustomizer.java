package dev.aerun.runtime.server;

import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpURI;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.Request;

/**
 * Gives an HTTP/2 request the {@code Host} field its HTTP/1.1 form carries, from its {@code
 * :authority}: HTTP/2 sends the authority as a pseudo-header, which Jetty does not make a field, so
 * an app reading {@code getHeader("Host")} (and the request contract) would otherwise see none over
 * h2c only. A request with a {@code Host} field of its own, or without an authority, is left as it
 * is; HTTP/1 requests are never touched (an HTTP/1.0 request without {@code Host} stays so).
 */
final class Http2HostCustomizer implements HttpConfiguration.Customizer {
  @Override
  public Request customize(Request request, HttpFields.Mutable responseHeaders) {
    if (request.getConnectionMetaData().getHttpVersion().getVersion() < 20
        || request.getHeaders().contains(HttpHeader.HOST)) {
      return request;
    }
    HttpURI uri = request.getHttpURI();
    if (uri.getHost() == null || uri.getHost().isEmpty()) {
      return request;
    }
    // First, where an HTTP/1.1 client writes it.
    HttpFields headers =
        HttpFields.build()
            .add(HttpHeader.HOST, uri.getAuthority())
            .add(request.getHeaders())
            .asImmutable();
    return new Request.Wrapper(request) {
      @Override
      public HttpFields getHeaders() {
        return headers;
      }
    };
  }
}
