package dev.aerun.main;

import dev.aerun.runtime.logging.RuntimeLogs;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.logging.Logger;

/**
 * The training run of a class-data-sharing archive (an image's AppCDS archive, JDK 25's AOT cache):
 * serves several launcher command lines in this one JVM, each its own runtime on a free loopback
 * port, sends each a few requests, then exits, when the JVM writes what it loaded. The JVM writes
 * one archive per process and a launcher serves in one mode: one JVM that served both modes, legacy
 * RPC and HttpConnector, leaves one archive that covers both.
 *
 * <p>{@code java -XX:ArchiveClassesAtExit=A -cp runtime-main.jar dev.aerun.main.Training PATHS
 * RUN...}: {@code PATHS} the comma-separated paths requested from every run (e.g. {@code
 * /hello,/request-info}); each {@code RUN} one launcher command line, its arguments separated by
 * spaces (e.g. {@code "--mode legacy --ee ee8 /app"}), given {@code --port} and {@code --address}
 * here. All runs serve until the end, so that no class loader (and with it no class) is unloaded
 * before the JVM archives. Exit code 0, or 1 when a run does not start or answers a request with
 * anything but a 200: an archive of a failed run would cover less than it claims.
 */
public final class Training {
  private static final Logger log = Logger.getLogger(Training.class.getName());

  private Training() {}

  public static void main(String[] args) {
    System.exit(run(System.getenv(), args));
  }

  static int run(Map<String, String> environment, String[] args) {
    if (args.length < 2) {
      System.err.println("error: usage: Training PATHS RUN...");
      return Launcher.EXIT_USAGE;
    }
    List<String> paths = Arrays.asList(args[0].split(","));
    List<RunningRuntime> running = new ArrayList<>();
    boolean logsInstalled = false;
    for (String run : Arrays.asList(args).subList(1, args.length)) {
      try {
        int port = freePort();
        List<String> command = new ArrayList<>(Arrays.asList(run.trim().split("\\s+")));
        command.addAll(0, List.of("--port", Integer.toString(port), "--address", "127.0.0.1"));
        LaunchOptions options =
            LaunchOptions.parse(environment, Map.of(), command.toArray(String[]::new));
        if (!logsInstalled) {
          RuntimeLogs.install(options.logFormat(), options.platform());
          logsInstalled = true;
        }
        running.add(
            RuntimeStarter.start(
                options, RuntimeStarter.readApp(options), Runtime.getRuntime().maxMemory()));
        for (String path : paths) {
          int status = get(port, path);
          if (status != 200) {
            System.err.println("error: training run '" + run + "': " + path + " gave " + status);
            return Launcher.EXIT_START_FAILED;
          }
        }
        log.info("training run '" + run + "' served " + paths);
      } catch (UsageException | StartupException | IOException e) {
        System.err.println("error: training run '" + run + "': " + e.getMessage());
        return Launcher.EXIT_START_FAILED;
      }
    }
    Served.mark();
    return Launcher.EXIT_OK; // the exit stops every runtime (their shutdown hooks)
  }

  /**
   * Loaded when every run has served, before the runtimes stop: in a class-loading log of the
   * training JVM ({@code -Xlog:class+load}) its line separates the classes of starting and serving
   * from those of stopping ({@code runtime-main/bin/startup-classes.sh} keeps the former).
   */
  static final class Served {
    private Served() {}

    static void mark() {}
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  /**
   * The status of a GET, over a plain socket: an HTTP client library would add its own classes to
   * the archive, which the runtime never loads.
   */
  private static int get(int port, String path) throws IOException {
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
      socket.setSoTimeout(120_000);
      OutputStream out = socket.getOutputStream();
      out.write(
          ("GET " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = socket.getInputStream();
      String response = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
      String[] statusLine = response.split("\r\n", 2)[0].split(" ");
      return statusLine.length > 1 ? Integer.parseInt(statusLine[1]) : -1;
    }
  }
}
