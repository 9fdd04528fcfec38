package dev.aerun.apihost;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Logger;

/**
 * The local API host's process. Reads the per-run secret from the first line of standard input,
 * starts the host on {@code 127.0.0.1}, prints {@code aerun-api-host serving at 127.0.0.1:PORT},
 * and stops (writing the Datastore to disk) when its standard input ends, when {@code --parent-pid}
 * ends, or on SIGTERM: so it never outlives the dev server, even one killed with {@code kill -9}
 * (its end closes the pipe). Exit codes: 0 stopped, 1 could not start, 2 wrong command line.
 */
public final class LocalApiHostMain {
  private static final Logger log = Logger.getLogger(LocalApiHostMain.class.getName());

  /** The line the dev server waits for; the port follows it. */
  public static final String READY = "aerun-api-host serving at 127.0.0.1:";

  private LocalApiHostMain() {}

  public static void main(String[] args) throws IOException {
    System.exit(run(List.of(args), System.out));
  }

  static int run(List<String> args, PrintStream out) throws IOException {
    HostOptions options;
    try {
      options = HostOptions.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("error: " + e.getMessage());
      return 2;
    }
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    String secret = in.readLine();
    if (secret == null || secret.isBlank()) {
      System.err.println("error: no secret on standard input");
      return 2;
    }
    LocalApiHost host;
    try {
      host = LocalApiHost.start(options, secret.trim());
    } catch (Exception e) {
      System.err.println("error: the local API host failed to start: " + e);
      return 1;
    }
    AtomicBoolean stopped = new AtomicBoolean();
    Runnable stop =
        () -> {
          if (stopped.compareAndSet(false, true)) {
            try {
              host.stop();
            } catch (IOException e) {
              log.warning(e.getMessage());
            }
          }
        };
    Runtime.getRuntime().addShutdownHook(new Thread(stop, "api-host-stop"));
    if (options.parentPid() != null) {
      ProcessHandle.of(options.parentPid())
          .ifPresentOrElse(
              parent -> parent.onExit().thenRun(() -> System.exit(0)), () -> System.exit(0));
    }
    out.println(READY + host.port());
    out.flush();
    // Standard input stays open while the dev server lives; its end (however the server ended)
    // ends this process, the shutdown hook writing the Datastore first.
    while (in.readLine() != null) {
      // nothing else is said on it
    }
    return 0;
  }
}
