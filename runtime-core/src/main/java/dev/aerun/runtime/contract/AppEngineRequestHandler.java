package dev.aerun.runtime.contract;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpScheme;
import org.eclipse.jetty.http.HttpURI;
import org.eclipse.jetty.server.ConnectionMetaData;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Applies the {@link RequestContract} to every request, then calls the next handler with the
 * request as the app must see it: platform headers removed or hidden, the remote address from
 * {@code X-AppEngine-User-IP}, {@code isSecure()} and the {@code https} scheme from {@code
 * X-AppEngine-Https}, and the {@link RequestAttributes} set.
 *
 * <p>Servlet requests of both EE8 and EE10 read these values from the core request they wrap
 * ({@code getRemoteAddr/Port} from {@link ConnectionMetaData#getRemoteSocketAddress()}, {@code
 * isSecure} from {@link Request#isSecure()}, the scheme from {@link Request#getHttpURI()}, headers
 * from {@link Request#getHeaders()}), so wrapping is enough. Never blocks, never touches the body;
 * a request without platform headers goes through unwrapped.
 */
public class AppEngineRequestHandler extends Handler.Wrapper {
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
    SocketAddress peer = request.getConnectionMetaData().getRemoteSocketAddress();
    ContractResult result =
        contract.apply(
            request.getHeaders(),
            peer instanceof InetSocketAddress inet ? inet : null,
            request.isSecure());
    RequestAttributes.setAll(request, result);
    Request appRequest = result.changesRequest() ? new ContractRequest(request, result) : request;
    return super.handle(appRequest, response, callback);
  }

  /** The request as the app sees it. */
  private static final class ContractRequest extends Request.Wrapper {
    private final ContractResult result;
    private final ConnectionMetaData connection;
    private final HttpURI uri;

    ContractRequest(Request wrapped, ContractResult result) {
      super(wrapped);
      this.result = result;
      this.connection =
          result.remoteAddressFromHeader() || result.secureFromHeader()
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
