package dev.aerun.bench.bare;

import dev.aerun.startline.StartLine;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * request headers, a 30 s idle timeout.
 *
 * <pre>
 * java -jar bare-jetty.jar --port 0 --address 127.0.0.1 --ee ee10|ee8|ee11 [--temp-dir DIR] app.war
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
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--port" -> port = Integer.parseInt(args[++i]);
        case "--address" -> address = args[++i];
        case "--ee" -> ee = args[++i];
        case "--temp-dir" -> temp = Path.of(args[++i]);
        default -> war = Path.of(args[i]);
      }
    }
    if (war == null) {
      System.err.println(
          "usage: bare-jetty --port N --address A --ee ee10|ee8|ee11 [--temp-dir D] app.war");
      System.exit(2);
    }
    if (temp == null) {
      temp = Files.createTempDirectory("bare-jetty-");
    }
    Files.createDirectories(temp);

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
    server.setHandler(webapp);

    HttpConfiguration http = new HttpConfiguration();
    http.setSendServerVersion(false);
    http.setSendXPoweredBy(false);
    http.setSendDateHeader(true);
    http.setRequestHeaderSize(64 * 1024);
    ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory(http));
    connector.setHost(address);
    connector.setPort(port);
    connector.setIdleTimeout(30_000);
    server.addConnector(connector);
    server.setStopAtShutdown(true);

    // Jetty starts the handlers (deploying the webapp) before it opens the connector.
    server.start();
    System.out.println(
        StartLine.format(
            war.getFileName()
                + " on bare Jetty "
                + Jetty.VERSION
                + " ("
                + ee.toUpperCase(java.util.Locale.ROOT)
                + ")",
            address,
            connector.getLocalPort(),
            ManagementFactory.getRuntimeMXBean().getUptime(),
            ""));
    System.out.flush();
    server.join();
  }
}
