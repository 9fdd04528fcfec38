package dev.aerun.e2e.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.testing.AppCopies;
import dev.aerun.testing.RuntimeProcess;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every way out of the runtime removes its working directory ({@code aerun-webapp-*}): a stop, a
 * stop signal while the app is still deploying, a second signal during the drain, a start-up that
 * fails after the directory was made.
 */
class WorkDirectoryCleanupTest {
  @TempDir Path tmp;

  private Path temp() throws Exception {
    return Files.createDirectories(tmp.resolve("temp"));
  }

  private static void awaitWorkDirectory(Path temp, RuntimeProcess runtime) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (TestWars.workDirectories(temp).isEmpty()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("no working directory appeared:\n" + runtime.output());
      }
      Thread.sleep(5);
    }
  }

  @Test
  void sigtermWhileDeployingRemovesIt() throws Exception {
    // Many entries: unpacking them takes long enough for the signal to arrive meanwhile.
    Path war =
        TestWars.from(RuntimeProcess.app("sample-static-app.war"))
            .filler(20_000)
            .write(tmp.resolve("slow.war"));
    Path temp = temp();
    try (RuntimeProcess runtime =
        RuntimeProcess.launch(war).args("--temp-dir", temp.toString()).start()) {
      awaitWorkDirectory(temp, runtime);
      runtime.sendSigterm();
      runtime.waitFor(60);
      assertEquals(List.of(), TestWars.workDirectories(temp), runtime.output());
    }
  }

  @Test
  void secondSignalDuringTheDrainRemovesIt() throws Exception {
    Path temp = temp();
    try (RuntimeProcess runtime =
        RuntimeProcess.launch(RuntimeProcess.app("sample-ee10-app.war"))
            .args("--temp-dir", temp.toString(), "--shutdown-grace", "60s")
            .env("SAMPLE_ENV", "from-appengine-web-xml") // no relaunch: one JVM to signal
            .start()) {
      HttpClient client = HttpClient.newHttpClient();
      CompletableFuture<HttpResponse<String>> sleeping =
          client.sendAsync(
              HttpRequest.newBuilder(runtime.uri("/sleep?ms=50000")).build(),
              HttpResponse.BodyHandlers.ofString());
      awaitSleeping(client, runtime);
      assertEquals(1, TestWars.workDirectories(temp).size(), runtime.output());

      runtime.sendSigterm();
      runtime.awaitOutput(java.util.regex.Pattern.compile("SIGTERM: draining"));
      runtime.sendSigterm();

      assertEquals(1, runtime.waitFor(60), runtime.output());
      assertEquals(List.of(), TestWars.workDirectories(temp), runtime.output());
      sleeping.cancel(true);
    }
  }

  @Test
  void failedStartRemovesIt() throws Exception {
    Path app = AppCopies.explode(RuntimeProcess.app("sample-static-app.war"), tmp.resolve("app"));
    Path descriptor = app.resolve("WEB-INF/appengine-web.xml");
    Files.writeString(
        descriptor,
        Files.readString(descriptor)
            .replace("public/errors/default.html", "public/errors/no-such-page.html"));
    Path temp = temp();
    try (RuntimeProcess runtime =
        RuntimeProcess.launch(app).args("--temp-dir", temp.toString()).start()) {
      assertEquals(1, runtime.waitFor(60), runtime.output());
      assertTrue(runtime.output().contains("no-such-page.html"), runtime.output());
      assertEquals(List.of(), TestWars.workDirectories(temp), runtime.output());
    }
  }

  @Test
  void stopRemovesIt() throws Exception {
    Path temp = temp();
    try (RuntimeProcess runtime =
        RuntimeProcess.launch(RuntimeProcess.app("sample-static-app.war"))
            .args("--mode", "legacy", "--temp-dir", temp.toString())
            .start()) {
      runtime.port();
      assertEquals(1, TestWars.workDirectories(temp).size(), runtime.output());
      assertEquals(0, runtime.stop(), runtime.output());
      assertEquals(List.of(), TestWars.workDirectories(temp), runtime.output());
    }
  }

  private static void awaitSleeping(HttpClient client, RuntimeProcess runtime) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    String seen = "";
    while (System.nanoTime() < deadline) {
      seen =
          client
              .send(
                  HttpRequest.newBuilder(runtime.uri("/sleep")).build(),
                  HttpResponse.BodyHandlers.ofString())
              .body()
              .trim();
      if (seen.equals("sleeping 1")) {
        return;
      }
      Thread.sleep(20);
    }
    throw new AssertionError("the request never slept; last: " + seen);
  }
}
