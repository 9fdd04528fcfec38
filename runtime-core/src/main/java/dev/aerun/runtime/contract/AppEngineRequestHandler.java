package dev.aerun.runtime.contract;

import dev.aerun.runtime.server.HeadersOnlyStreams;
import java.net.SocketAddress;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpScheme;
import org.eclipse.jetty.http.HttpURI;
import org.eclipse.jetty.http.Trailers;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.ConnectionMetaData;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Applies the {@link RequestContract} to every request, then calls the next handler with the
 * request as the app must see it: platform headers removed or hidden, the remote address from
 * {@code X-AppEngine-User-IP} or the forwarding headers, {@code isSecure()} and the {@code https}
 * scheme from {@code X-AppEngine-Https} or the forwarding headers, and the {@link
 * RequestAttributes} set.
 *
 * <p>Servlet requests of both EE8 and EE10 read these values from the core request they wrap
 * ({@code getRemoteAddr/Port} from {@link ConnectionMetaData#getRemoteSocketAddress()}, {@code
 * isSecure} from {@link Request#isSecure()}, the scheme from {@link Request#getHttpURI()}, headers
 * from {@link Request#getHeaders()}), so wrapping is enough. Never blocks, never touches the body;
 * a request without platform headers or possible trailers goes through unwrapped. Trailer fields
 * follow the same trust rule as header fields ({@link RequestContract#trailers}). A request without
 * any field the contract reads ({@link RequestContract#concerns}) costs no allocation here.
 */
public final class AppEngineRequestHandler extends Handler.Wrapper {
  private final RequestContract contract;

  public AppEngineRequestHandler(ContractOptions options) {
    this(options, null);
  }

  public AppEngineRequestHandler(ContractOptions options, Handler next) {
    super(next);
    this.contract = new RequestContract(options);
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    if (!RequestContract.concerns(request.getHeaders()) && !mayHaveTrailers(request)) {
      // Nothing to apply (most requests reaching an app directly): no result to build.
      return super.handle(request, response, callback);
    }
    ContractResult result = contract.apply(request);
    RequestAttributes.setAll(request, result);
    Request appRequest;
    if (result.changesRequest()) {
      appRequest = new ContractRequest(request, result, contract);
    } else if (mayHaveTrailers(request)) {
      appRequest = new TrailersRequest(request, result.trustedPeer(), contract);
    } else {
      appRequest = request;
    }
    return super.handle(appRequest, response, callback);
  }

  /**
   * Whether trailer fields may follow the body: HTTP/1.x carries them only after a chunked body
   * (length unknown); later versions after any body or none, unless the stream ended with its
   * headers.
   */
  private static boolean mayHaveTrailers(Request request) {
    if (request.getConnectionMetaData().getHttpVersion().getVersion() >= 20) {
      return !HeadersOnlyStreams.endedWithHeaders(request);
    }
    return request.getLength() < 0 && request.getHeaders().contains(HttpHeader.TRANSFER_ENCODING);
  }

  /**
   * The request's trailers filtered by {@link RequestContract#trailers}: both where the core API
   * reads them ({@link Request#getTrailers()}, EE10) and where the body stream delivers them (a
   * {@link Trailers} chunk, which EE8 records), so a client cannot smuggle a platform header in
   * after the body.
   */
  private static class TrailersRequest extends Request.Wrapper {
    private final boolean trustedPeer;
    private final RequestContract contract;

    TrailersRequest(Request wrapped, boolean trustedPeer, RequestContract contract) {
      super(wrapped);
      this.trustedPeer = trustedPeer;
      this.contract = contract;
    }

    @Override
    public HttpFields getTrailers() {
      return contract.trailers(super.getTrailers(), trustedPeer);
    }

    @Override
    public Content.Chunk read() {
      Content.Chunk chunk = super.read();
      if (chunk instanceof Trailers trailers) {
        HttpFields visible = contract.trailers(trailers.getTrailers(), trustedPeer);
        if (visible != trailers.getTrailers()) {
          return new Trailers(visible);
        }
      }
      return chunk;
    }
  }

  /** The request as the app sees it. */
  private static final class ContractRequest extends TrailersRequest {
    private final ContractResult result;
    private final ConnectionMetaData connection;
    private final HttpURI uri;

    ContractRequest(Request wrapped, ContractResult result, RequestContract contract) {
      super(wrapped, result.trustedPeer(), contract);
      this.result = result;
      this.connection =
          result.remoteAddressFromHeader()
                  || result.secureFromHeader()
                  // A Unix-domain peer: the app sees RequestContract.NO_ADDRESS, as in legacy mode.
                  || result.remoteAddress() == RequestContract.NO_ADDRESS
              ? new ContractConnectionMetaData(wrapped.getConnectionMetaData(), result)
              : wrapped.getConnectionMetaData();
      this.uri =
          result.secureFromHeader()
              ? HttpURI.build(wrapped.getHttpURI()).scheme(HttpScheme.HTTPS).asImmutable()
              : wrapped.getHttpURI();
    }

    @Override
    public HttpFields getHeaders() {
      return result.headers();
    }

    @Override
    public ConnectionMetaData getConnectionMetaData() {
      return connection;
    }

    @Override
    public HttpURI getHttpURI() {
      return uri;
    }

    @Override
    public boolean isSecure() {
      return result.secure();
    }
  }

  /** The connection as the app sees it: the end user's address, secure if the front end said so. */
  private static final class ContractConnectionMetaData extends ConnectionMetaData.Wrapper {
    private final ContractResult result;

    ContractConnectionMetaData(ConnectionMetaData wrapped, ContractResult result) {
      super(wrapped);
      this.result = result;
    }

    @Override
    public SocketAddress getRemoteSocketAddress() {
      return result.remoteAddress();
    }

    @Override
    public boolean isSecure() {
      return result.secure();
    }
  }
}
