package dev.aerun.bench.bare;

import dev.aerun.startline.StartLine;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.eclipse.jetty.compression.Compression;
import org.eclipse.jetty.compression.brotli.BrotliCompression;
import org.eclipse.jetty.compression.brotli.BrotliEncoderConfig;
import org.eclipse.jetty.compression.gzip.GzipCompression;
import org.eclipse.jetty.compression.gzip.GzipEncoderConfig;
import org.eclipse.jetty.compression.server.CompressionConfig;
import org.eclipse.jetty.compression.server.CompressionHandler;
import org.eclipse.jetty.compression.zstandard.ZstandardCompression;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Jetty;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The bare Jetty peer of the benchmarks: Jetty serving a WAR in a plain {@code WebAppContext}, as
 * an embedded Jetty app would, with no runtime code. Its HTTP settings match what the runtime gives
 * every public connector, so that the comparison is of the request path and nothing else: 200
 * threads, no {@code Server} or {@code X-Powered-By} header, a {@code Date} header, 64 KiB of
 * request headers, a 30 s idle timeout; and, as the runtime by default, Jetty's compression handler
 * (gzip, brotli at quality 5, zstandard; from 256 bytes; every method but HEAD compressed, gzip
 * request bodies inflated) and h2c with prior knowledge on the same port.
 *
 * <pre>
 * java -jar bare-jetty.jar --port 0 --address 127.0.0.1 --ee ee10|ee8|ee11 [--temp-dir DIR]
 *     [--compression on|off] [--h2c on|off] app.war
 * </pre>
 *
 * <p>Prints the runtime's {@link StartLine} once serving, {@code Serving app.war on bare Jetty
 * 12.1.7 (EE10) at http://HOST:PORT/ - started in N ms}, so the driver reads the port the same way.
 */
public final class BareJetty {
  private BareJetty() {}

  public static void main(String[] args) throws Exception {
    int port = 8080;
    String address = "127.0.0.1";
    String ee = "ee10";
    Path temp = null;
    Path war = null;
    boolean compression = true;
    boolean h2c = true;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--port" -> port = Integer.parseInt(args[++i]);
        case "--address" -> address = args[++i];
        case "--ee" -> ee = args[++i];
        case "--temp-dir" -> temp = Path.of(args[++i]);
        case "--compression" -> compression = args[++i].equals("on");
        case "--h2c" -> h2c = args[++i].equals("on");
        default -> war = Path.of(args[i]);
      }
    }
    if (war == null) {
      System.err.println(
          "usage: bare-jetty --port N --address A --ee ee10|ee8|ee11 [--temp-dir D] app.war");
      System.exit(2);
    }
    temp = temp == null ? Files.createTempDirectory("bare-jetty-") : Files.createDirectories(temp);

    QueuedThreadPool threads = new QueuedThreadPool(200);
    threads.setName("bare-jetty");
    Server server = new Server(threads);
    Handler webapp =
        switch (ee) {
          case "ee10" -> Ee10.webapp(war, temp);
          case "ee8" -> Ee8.webapp(war, temp);
          case "ee11" -> Ee11.webapp(war, temp);
          default -> throw new IllegalArgumentException("--ee must be ee10, ee8 or ee11: " + ee);
        };
    server.setHandler(compression ? compression(webapp) : webapp);

    HttpConfiguration http = new HttpConfiguration();
    http.setSendServerVersion(false);
    http.setSendXPoweredBy(false);
    http.setSendDateHeader(true);
    http.setRequestHeaderSize(64 * 1024);
    HttpConnectionFactory http1 = new HttpConnectionFactory(http);
    ServerConnector connector =
        h2c
            ? new ServerConnector(server, http1, new HTTP2CServerConnectionFactory(http))
            : new ServerConnector(server, http1);
    connector.setHost(address);
    connector.setPort(port);
    connector.setIdleTimeout(30_000);
    server.addConnector(connector);
    server.setStopAtShutdown(true);

    // Jetty starts the handlers (deploying the webapp) before it opens the connector.
    server.start();
    String version = Jetty.VERSION + " (" + ee.toUpperCase(Locale.ROOT) + ")";
    String what = war.getFileName() + " on bare Jetty " + version;
    long uptime = ManagementFactory.getRuntimeMXBean().getUptime();
    System.out.println(StartLine.format(what, address, connector.getLocalPort(), uptime, ""));
    System.out.flush();
    server.join();
  }

  /** Jetty's compression handler around {@code webapp}, set up as the runtime's default. */
  private static Handler compression(Handler webapp) {
    CompressionHandler handler = new CompressionHandler(webapp);
    GzipCompression gzip = new GzipCompression();
    GzipEncoderConfig gzipEncoding = new GzipEncoderConfig();
    gzipEncoding.setSyncFlush(true);
    gzip.setDefaultEncoderConfig(gzipEncoding);
    BrotliCompression brotli = new BrotliCompression();
    BrotliEncoderConfig brotliEncoding = new BrotliEncoderConfig();
    brotliEncoding.setCompressionLevel(5);
    brotli.setDefaultEncoderConfig(brotliEncoding);
    for (Compression compression : List.of(gzip, brotli, new ZstandardCompression())) {
      compression.setMinCompressSize(256);
      handler.putCompression(compression);
    }
    CompressionConfig.Builder config =
        CompressionConfig.builder()
            .defaults()
            .compressPreferredEncodings(List.of("zstd", "br", "gzip"))
            .decompressIncludeEncoding("gzip");
    for (HttpMethod method : HttpMethod.values()) {
      if (method != HttpMethod.HEAD) {
        config.compressIncludeMethod(method.asString());
      }
      config.decompressIncludeMethod(method.asString());
    }
    handler.putConfiguration("/", config.build());
    return handler;
  }
}
