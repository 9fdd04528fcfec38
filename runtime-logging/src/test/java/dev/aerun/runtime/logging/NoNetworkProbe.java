package dev.aerun.runtime.logging;

import dev.aerun.runtime.contract.TraceContext;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.ProxySelector;
import java.net.SocketAddress;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Logger;

/**
 * Run by {@link NoNetworkTest} in a fresh JVM: logs the way the runtime does ({@code ours}) or
 * through the library's own {@code LoggingHandler} with the stdout target ({@code library}), and
 * prints every URL something tried to open.
 *
 * <p>Every {@code HttpURLConnection} (the metadata server probe, Google's HTTP transport for
 * credentials) asks the default {@link ProxySelector} before it connects; this one records the
 * address and sends it to a closed local port, so the probe fails at once and never leaves the
 * machine.
 */
final class NoNetworkProbe {
  private NoNetworkProbe() {}

  public static void main(String[] args) {
    List<URI> attempts = new CopyOnWriteArrayList<>();
    ProxySelector.setDefault(
        new ProxySelector() {
          @Override
          public List<Proxy> select(URI uri) {
            attempts.add(uri);
            return List.of(new Proxy(Proxy.Type.HTTP, new InetSocketAddress("127.0.0.1", 1)));
          }

          @Override
          public void connectFailed(URI uri, SocketAddress address, IOException e) {}
        });
    if (args[0].equals("library")) {
      LibraryProbe.run();
    } else {
      CloudJsonHandler handler = new CloudJsonHandler(System.out, "probe-project");
      Logger logger = Logger.getLogger("probe");
      logger.setUseParentHandlers(false);
      logger.addHandler(handler);
      RequestTrace.set(new TraceContext("4bf92f3577b34da6a3ce929d0e0e4736", null, true));
      logger.info("through CloudJsonHandler");
      logger.log(
          new AccessRecord(
              "GET",
              "/probe",
              200,
              2,
              1_000_000,
              "127.0.0.1",
              "probe",
              null,
              RequestTrace.current()));
    }
    for (URI uri : attempts) {
      System.out.println("network-attempt=" + uri);
    }
  }

  /** Its own class, so that the verifier of {@link #main} never loads the library's client. */
  private static final class LibraryProbe {
    static void run() {
      try {
        com.google.cloud.logging.LoggingHandler handler =
            new com.google.cloud.logging.LoggingHandler(
                "java.log",
                com.google.cloud.logging.LoggingOptions.newBuilder()
                    .setProjectId("probe-project")
                    .setCredentials(com.google.cloud.NoCredentials.getInstance())
                    .build());
        handler.setLogTarget(com.google.cloud.logging.LoggingHandler.LogTarget.STDOUT);
        Logger.getLogger("probe").addHandler(handler);
        Logger.getLogger("probe").info("through LoggingHandler");
      } catch (Throwable e) {
        System.out.println("library-failed=" + e);
      }
    }
  }
}
