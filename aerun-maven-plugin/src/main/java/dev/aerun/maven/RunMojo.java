package dev.aerun.maven;

import dev.aerun.startline.StartLine;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;

/**
 * Serves the project in the foreground from its sources, without packaging: the webapp directory,
 * {@code target/classes} and the runtime dependencies, on the aerun runtime in a forked JVM with
 * {@code --development --watch}. A recompile (IDE, {@code mvn compile}) redeploys the app in the
 * same JVM; a change that needs a new JVM restarts the fork. Ctrl-C (SIGINT) or SIGTERM to Maven
 * drains and stops it.
 */
@Mojo(name = "run", requiresDependencyResolution = ResolutionScope.RUNTIME, threadSafe = true)
public class RunMojo extends AbstractAerunMojo {
  /** How long the runtime may drain when Maven is stopped. */
  static final Duration STOP_GRACE = Duration.ofSeconds(20);

  /** The webapp source directory (with {@code WEB-INF/appengine-web.xml}). */
  @Parameter(property = "aerun.webappDirectory", defaultValue = "${basedir}/src/main/webapp")
  protected File webappDirectory;

  /** Redeploy on changes (classes, jars, descriptors). */
  @Parameter(property = "aerun.watch", defaultValue = "true")
  protected boolean watch;

  /**
   * For scripted checks: once the app serves, GET this path, write the answer to {@code
   * target/aerun/probe.txt} (status line, then body), stop the runtime and return, instead of
   * serving until stopped.
   */
  @Parameter(property = "aerun.probe")
  protected String probe;

  /** What to serve; the sources unless a subclass says otherwise. */
  protected App app() throws MojoExecutionException {
    return sourcesApp(webappDirectory);
  }

  @Override
  public void execute() throws MojoExecutionException, MojoFailureException {
    if (skip) {
      getLog().info("aerun: skipped");
      return;
    }
    App app = app();
    List<String> command = command(app, watch);
    getLog().debug("aerun: " + String.join(" ", command));
    try {
      while (true) {
        int code = runOnce(command);
        if (code == 3) {
          getLog().info("aerun: the change needs a new JVM: restarting the runtime");
          continue;
        }
        if (code != 0 && probe == null) {
          throw new MojoFailureException("the aerun runtime exited with " + code);
        }
        return;
      }
    } catch (IOException e) {
      throw new MojoExecutionException("cannot run the aerun runtime: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new MojoExecutionException("interrupted", e);
    }
  }

  /** One fork, its output on Maven's; returns its exit code. */
  private int runOnce(List<String> command)
      throws IOException, InterruptedException, MojoFailureException {
    Process process = processBuilder(command).redirectErrorStream(true).start();
    // SIGINT/SIGTERM to Maven alone (not its process group) still drains the fork.
    Thread stopFork =
        new Thread(
            () -> {
              try {
                ForkedRuntime.stop(process.toHandle(), STOP_GRACE);
              } catch (InterruptedException e) {
                process.destroyForcibly();
              }
            },
            "aerun-stop-fork");
    Runtime.getRuntime().addShutdownHook(stopFork);
    CompletableFuture<Integer> started = new CompletableFuture<>();
    Thread pump = new Thread(() -> pump(process, started), "aerun-output");
    pump.start();
    try {
      if (probe != null) {
        return probeAndStop(process, started);
      }
      int code = process.waitFor();
      pump.join();
      return code;
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(stopFork);
      } catch (IllegalStateException shuttingDown) {
        // The hook is running: it stops the fork.
      }
    }
  }

  private int probeAndStop(Process process, CompletableFuture<Integer> started)
      throws InterruptedException, IOException, MojoFailureException {
    int port;
    try {
      port = started.get(120, TimeUnit.SECONDS);
    } catch (Exception e) {
      boolean exited = process.waitFor(10, TimeUnit.SECONDS);
      process.destroyForcibly();
      throw new MojoFailureException(
          "the aerun runtime did not start"
              + (exited ? " (exit code " + process.exitValue() + ")" : ""));
    }
    String host = address.equals("0.0.0.0") ? "127.0.0.1" : address;
    HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(30)).build();
    HttpResponse<String> response =
        client.send(
            HttpRequest.newBuilder(URI.create("http://" + host + ":" + port + probe))
                .timeout(Duration.ofSeconds(60))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    Path out = workDirectory().resolve("probe.txt");
    Files.createDirectories(out.getParent());
    Files.writeString(out, response.statusCode() + "\n" + response.body(), StandardCharsets.UTF_8);
    getLog().info("aerun: GET " + probe + " answered " + response.statusCode() + " (" + out + ")");
    ForkedRuntime.stop(process.toHandle(), STOP_GRACE);
    return process.waitFor();
  }

  /** Copies the fork's output to Maven's, completing {@code started} with the port it serves on. */
  private static void pump(Process process, CompletableFuture<Integer> started) {
    try (BufferedReader in =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        System.out.println(line);
        if (!started.isDone()) {
          StartLine.find(line).ifPresent(s -> started.complete(s.port()));
        }
      }
    } catch (IOException e) {
      // The fork ended.
    } finally {
      started.completeExceptionally(new IllegalStateException("the runtime exited"));
    }
  }
}
