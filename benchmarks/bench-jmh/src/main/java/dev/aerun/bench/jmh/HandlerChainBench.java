package dev.aerun.bench.jmh;

import dev.aerun.httpconnector.HttpConnectorServer;
import dev.aerun.runtime.contract.RequestLimits;
import dev.aerun.runtime.logging.AccessLog;
import dev.aerun.runtime.logging.CloudJsonHandler;
import dev.aerun.runtime.server.PublicServers;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.logging.Handler;
import java.util.logging.Logger;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.LocalConnector;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.Callback;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * A keep-alive {@code GET} to a core handler that answers 5 bytes and allocates nothing: Jetty
 * alone ({@code bare}) against HttpConnector mode's request path ({@code httpConnector}: health,
 * draining, the concurrency limit, the request contract, the trace, the deadline, the size limits,
 * warm-up, the request log). The difference is what the runtime's request path costs per request;
 * {@code -prof gc} shows it in bytes ({@code gc.alloc.rate.norm}).
 *
 * <p>{@code requestLog=json} logs each request as the runtime does off a terminal with {@code
 * --request-log on} (Cloud Logging JSON, here written to nowhere); {@code off} is the runtime's
 * default off a terminal: no request log installed. The difference is the log line's cost.
 */
public class HandlerChainBench extends KeepAliveGetBench {
  private static final byte[] HELLO = "hello".getBytes(StandardCharsets.US_ASCII);
  private static final String REQUEST =
      "GET /hello?name=bench HTTP/1.1\r\n"
          + "Host: 127.0.0.1\r\n"
          + "User-Agent: aerun-bench\r\n"
          + "Accept: */*\r\n"
          + "\r\n";

  @Param({"bare", "httpConnector"})
  public String chain;

  @Param({"json", "off"})
  public String requestLog;

  /** Held, so that the level set on it stays: java.util.logging keeps loggers weakly. */
  private static final Logger REQUEST_LOG = Logger.getLogger(AccessLog.LOGGER_NAME);

  /** The app: 200 and five bytes, nothing allocated. */
  static final class Hello extends org.eclipse.jetty.server.Handler.Abstract {
    @Override
    public boolean handle(Request request, Response response, Callback callback) {
      response.setStatus(200);
      response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain");
      response.getHeaders().put(HttpHeader.CONTENT_LENGTH, HELLO.length);
      response.write(true, ByteBuffer.wrap(HELLO), callback);
      return true;
    }
  }

  @Setup(Level.Trial)
  public void start() throws Exception {
    configureLogging(requestLog.equals("json"));
    Server server;
    if (chain.equals("bare")) {
      server = new Server();
      server.setHandler(new Hello());
      server.start();
    } else {
      HttpConnectorServer runtime =
          new HttpConnectorServer(
              HttpConnectorServer.Spec.defaults(new Hello())
                  .withServer(
                      s ->
                          s.withHost("127.0.0.1")
                              .withPort(0)
                              .withRequestLog(requestLog.equals("json"))));
      runtime.start();
      server = runtime.server();
    }
    HttpConnectionFactory http =
        new HttpConnectionFactory(PublicServers.newHttpConfiguration(RequestLimits.defaults()));
    connect(server, new LocalConnector(server, http), REQUEST);
  }

  /** Root handler: Cloud Logging JSON to nowhere, as the runtime logs to stdout off a terminal. */
  private static void configureLogging(boolean requestLogOn) {
    Logger root = Logger.getLogger("");
    for (Handler handler : root.getHandlers()) {
      root.removeHandler(handler);
    }
    root.addHandler(new CloudJsonHandler(new PrintStream(OutputStream.nullOutputStream()), null));
    root.setLevel(java.util.logging.Level.INFO);
    REQUEST_LOG.setLevel(requestLogOn ? java.util.logging.Level.INFO : java.util.logging.Level.OFF);
  }
}
