package dev.aerun.main;

import dev.aerun.runtime.apis.ApiHost;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The local API host of development in a JVM of its own, on the jars of {@code lib/apihost}:
 * started with a per-run secret (on its standard input, never on a command line), on a loopback
 * port it keeps for the life of the dev server; told the app's port once the runtime serves;
 * started again (same port, same secret) with a log line if it dies; stopped with the dev server
 * (its standard input closed: it writes the Datastore to disk and exits), and never outliving it:
 * it also ends when its standard input ends, which a {@code kill -9} of the dev server does.
 */
final class LocalApiHostProcess {
  private static final Logger log = Logger.getLogger(LocalApiHostProcess.class.getName());
  private static final String MAIN = "dev.aerun.apihost.LocalApiHostMain";
  private static final String READY = "aerun-api-host serving at 127.0.0.1:";

  /** How long the host may take to start (its first JVM start loads Google's service classes). */
  private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

  /** How long a stop waits for the host to write its data and exit. */
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(15);

  /** The command's fixed part and what varies per start. */
  record Spec(
      Path javaHome, Path libFolder, Path appDir, Path storage, String appId, boolean logCalls) {}

  private final Spec spec;
  private final String secret;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private volatile Process process;
  private volatile int port;
  private volatile int appPort;
  private volatile boolean stopping;
  private volatile int restarts;

  private LocalApiHostProcess(Spec spec) {
    this.spec = spec;
    byte[] random = new byte[24];
    new SecureRandom().nextBytes(random);
    this.secret = HexFormat.of().formatHex(random);
  }

  /**
   * Starts the host and waits until it serves.
   *
   * @throws StartupException with one line when it cannot be started
   */
  static LocalApiHostProcess startBlocking(Spec spec) throws StartupException {
    LocalApiHostProcess host = new LocalApiHostProcess(spec);
    host.launchBlocking(0);
    Runtime.getRuntime().addShutdownHook(new Thread(host::stopBlocking, "aerun-api-host-stop"));
    return host;
  }

  /** Where the runtime's client finds it (with the secret). */
  ApiHost apiHost() {
    return new ApiHost("127.0.0.1", port, secret, "local API host");
  }

  int port() {
    return port;
  }

  int restarts() {
    return restarts;
  }

  /** The app serves on {@code 127.0.0.1:appPort}: where push tasks go. */
  void appServes(int newAppPort) {
    appPort = newAppPort;
    tellAppPort();
  }

  private void tellAppPort() {
    if (appPort == 0) {
      return;
    }
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/_aerun/app"))
            .header(ApiHost.SECRET_HEADER, secret)
            .timeout(Duration.ofSeconds(10))
            .POST(HttpRequest.BodyPublishers.ofString(Integer.toString(appPort)))
            .build();
    try {
      int status = http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
      if (status != 204) {
        log.warning("the local API host answered " + status + " to the app's port");
      }
    } catch (IOException e) {
      log.warning("cannot tell the local API host the app's port: " + e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void launchBlocking(int wantedPort) throws StartupException {
    List<String> command = new ArrayList<>();
    command.add(spec.javaHome().resolve("bin").resolve("java").toString());
    command.add("-XX:+UseSerialGC");
    command.add("-Xss512k");
    // One line per record: each is passed on as one "api host:" line of the dev server's log.
    command.add("-Djava.util.logging.SimpleFormatter.format=%4$s %3$s - %5$s%6$s%n");
    command.add("-cp");
    command.add(spec.libFolder().resolve("*").toString());
    command.add(MAIN);
    command.add("--app-dir");
    command.add(spec.appDir().toString());
    command.add("--storage");
    command.add(spec.storage().toString());
    command.add("--app-id");
    command.add(spec.appId());
    command.add("--parent-pid");
    command.add(Long.toString(ProcessHandle.current().pid()));
    command.add("--port");
    command.add(Integer.toString(wantedPort));
    if (spec.logCalls()) {
      command.add("--log-calls");
    }
    Process started;
    try {
      started = new ProcessBuilder(command).redirectErrorStream(true).start();
      OutputStream in = started.getOutputStream();
      in.write((secret + "\n").getBytes(StandardCharsets.UTF_8));
      in.flush(); // stays open: its end ends the host
    } catch (IOException e) {
      throw new StartupException("the local API host cannot be started: " + e.getMessage(), e);
    }
    BufferedReader out =
        new BufferedReader(new InputStreamReader(started.getInputStream(), StandardCharsets.UTF_8));
    CompletableFuture<Integer> ready = new CompletableFuture<>();
    Thread pump =
        new Thread(
            () -> {
              try {
                for (String line; (line = out.readLine()) != null; ) {
                  if (!ready.isDone() && line.startsWith(READY)) {
                    ready.complete(Integer.parseInt(line.substring(READY.length()).trim()));
                  } else {
                    log.info("api host: " + line);
                  }
                }
              } catch (IOException | NumberFormatException e) {
                ready.completeExceptionally(e);
              }
              ready.completeExceptionally(new IOException("the local API host ended"));
            },
            "aerun-api-host-log");
    pump.setDaemon(true);
    pump.start();
    try {
      port = ready.get(START_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (Exception e) {
      started.destroyForcibly();
      throw new StartupException(
          "the local API host did not start (see the 'api host:' lines above): "
              + RuntimeStarter.rootMessage(e),
          e);
    }
    process = started;
    started.onExit().thenAccept(this::ended);
  }

  /** Started again, on the same port, unless the dev server is stopping. */
  private void ended(Process ended) {
    if (stopping || ended != process) {
      return;
    }
    restarts++;
    log.warning(
        "The local API host exited (code "
            + ended.exitValue()
            + "): starting it again on 127.0.0.1:"
            + port);
    try {
      launchBlocking(port);
      tellAppPort();
    } catch (StartupException e) {
      log.log(Level.SEVERE, "The local API host could not be started again: " + e.getMessage());
    }
  }

  /** Closes the host's standard input and waits for it to write its data and exit. */
  void stopBlocking() {
    stopping = true;
    Process running = process;
    if (running == null || !running.isAlive()) {
      return;
    }
    try {
      running.getOutputStream().close();
      if (!running.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
        running.destroy();
        if (!running.waitFor(5, TimeUnit.SECONDS)) {
          running.destroyForcibly();
        }
      }
    } catch (IOException e) {
      running.destroy();
    } catch (InterruptedException e) {
      running.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  /** Whether {@code folder} holds the host's jars. */
  static boolean present(Path folder) {
    return Files.isRegularFile(folder.resolve("local-api-host.jar"));
  }
}
