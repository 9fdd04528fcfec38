package dev.aerun.bench.jmh;

import com.google.protobuf.ByteString;
import dev.aerun.rpc.front.UpRequests;
import dev.aerun.rpc.proto.UPRequest;
import dev.aerun.runtime.contract.ContractOptions;
import dev.aerun.runtime.contract.ContractResult;
import dev.aerun.runtime.contract.RequestContract;
import dev.aerun.runtime.env.AppEnvironment;
import java.net.InetSocketAddress;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.LocalConnector;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.Callback;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * Legacy mode's front end, request to protobuf: the request contract and {@link UpRequests#build}
 * on a real Jetty request ({@code upRequest}), against the same server answering without them
 * ({@code baseline}); the difference is the translation's cost per request.
 */
public class FrontTranslationBench extends KeepAliveGetBench {
  private static final String REQUEST =
      "GET /bytes?size=5120 HTTP/1.1\r\n"
          + "Host: app.example.com\r\n"
          + "User-Agent: Mozilla/5.0 (X11; Linux x86_64) Gecko/20100101 Firefox/120.0\r\n"
          + "Accept: */*\r\n"
          + "Accept-Encoding: gzip, deflate, br\r\n"
          + "Cookie: session=abc123; theme=dark\r\n"
          + "X-Cloud-Trace-Context: 4bf92f3577b34da6a3ce929d0e0e4736/12345;o=1\r\n"
          + "\r\n";

  @Param({"baseline", "upRequest"})
  public String handler;

  /** Where built messages go, so that the JIT cannot drop the work. */
  static volatile UPRequest sink;

  /** Builds the message the front end would send, then answers 200 with no body. */
  static final class Translate extends Handler.Abstract {
    private final boolean translate;
    private final RequestContract contract = new RequestContract(ContractOptions.defaults());
    private final AppEnvironment environment =
        new AppEnvironment("s~bench", "v1", "default", "aerun/bench", false);

    Translate(boolean translate) {
      this.translate = translate;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
      if (translate) {
        ContractResult result =
            contract.apply(
                request.getHeaders(),
                request.getConnectionMetaData().getRemoteSocketAddress()
                        instanceof InetSocketAddress inet
                    ? inet
                    : null,
                request.isSecure());
        sink = UpRequests.build(request, result, environment, ByteString.EMPTY, null, false, 0);
      }
      response.setStatus(200);
      response.getHeaders().put("Content-Length", "0");
      callback.succeeded();
      return true;
    }
  }

  @Setup(Level.Trial)
  public void start() throws Exception {
    Server server = new Server();
    server.setHandler(new Translate(handler.equals("upRequest")));
    server.start();
    connect(server, new LocalConnector(server), REQUEST);
  }
}
