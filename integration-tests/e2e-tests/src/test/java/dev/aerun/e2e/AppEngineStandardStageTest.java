package dev.aerun.e2e;

import static dev.aerun.e2e.BundledServices.call;
import static dev.aerun.e2e.BundledServices.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.aerun.testing.RawResponse;
import dev.aerun.testing.RuntimeProcess;
import dev.aerun.testing.Runtimes;
import dev.aerun.testing.TempDirs;
import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code stage --target appengine-standard} of the bundled-services sample app, as far as this
 * machine can check it (no deployment): Google's own staging code reads the staged folder and
 * writes an {@code app.yaml} with the {@code <entrypoint>}; and the entrypoint, run from the folder
 * with the platform's variables and {@code API_HOST}/{@code API_PORT} naming Google's own API
 * server, serves the app and its Datastore calls.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AppEngineStandardStageTest {
  private static final Pattern ENTRYPOINT = Pattern.compile("(?m)^entrypoint: (.+)$");
  @RegisterExtension final Runtimes runtimes = new Runtimes();
  private Path work;
  private Path staged;
  private String stageOutput;

  @BeforeAll
  void stage() throws Exception {
    work = TempDirs.deletedAtExit("aerun-standard-");
    staged = work.resolve("staged");
    Process stage =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar",
                RuntimeProcess.runtimeJar().toString(),
                "stage",
                "--target",
                "appengine-standard",
                RuntimeProcess.app("sample-apis-ee10.war").toString(),
                staged.toString())
            .redirectErrorStream(true)
            .start();
    stageOutput = new String(stage.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(stage.waitFor(120, TimeUnit.SECONDS));
    assertEquals(0, stage.exitValue(), stageOutput);
  }

  private String entrypoint() {
    Matcher m = ENTRYPOINT.matcher(stageOutput);
    assertTrue(m.find(), stageOutput);
    return m.group(1).trim();
  }

  @Test
  void theFolder_holdsTheApp_theRuntimeItNeeds_andTheEntrypoint() throws Exception {
    assertEquals(
        "java -XX:MaxRAMPercentage=75 -XX:+ExitOnOutOfMemoryError -jar"
            + " WEB-INF/aerun/runtime-main.jar --log-format json --mode http --ee ee10 .",
        entrypoint());
    assertTrue(Files.isRegularFile(staged.resolve("WEB-INF/lib/appengine-api-1.0-sdk-4.0.2.jar")));
    assertTrue(Files.isRegularFile(staged.resolve("WEB-INF/aerun/runtime-main.jar")));
    assertTrue(Files.isDirectory(staged.resolve("WEB-INF/aerun/lib/ee10")));
    for (String absent : List.of("ee8", "ee11", "legacy", "apihost", "stage")) {
      assertFalse(Files.exists(staged.resolve("WEB-INF/aerun/lib/" + absent)), absent);
    }
    String descriptor = Files.readString(staged.resolve("WEB-INF/appengine-web.xml"));
    assertTrue(descriptor.contains("<entrypoint>" + entrypoint() + "</entrypoint>"), descriptor);
    assertTrue(descriptor.contains("<app-engine-apis>true</app-engine-apis>"), descriptor);
    assertTrue(descriptor.contains("<application>apis-sample</application>"), descriptor);
    assertTrue(descriptor.contains("<runtime>java21</runtime>"), descriptor);
  }

  @Test
  void googlesStaging_readsTheFolder_andItsAppYamlCarriesTheEntrypoint() throws Exception {
    // Google's reader writes a default web.xml into an app without one: give it a copy.
    Path copy = work.resolve("google-input");
    try (Stream<Path> tree = Files.walk(staged)) {
      for (Path p : tree.toList()) {
        Path to = copy.resolve(staged.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(to);
        } else {
          Files.copy(p, to);
        }
      }
    }
    Path sdk = Files.createDirectories(work.resolve("sdk/docs"));
    Files.writeString(
        sdk.resolve("appengine-web.xsd"),
        GoogleStagingCheck.anySchema("appengine-web-app", "http://appengine.google.com/ns/1.0"));
    Files.writeString(sdk.resolve("cron.xsd"), GoogleStagingCheck.anySchema("cronentries", null));
    Files.writeString(
        sdk.resolve("queue.xsd"), GoogleStagingCheck.anySchema("queue-entries", null));
    List<String> command =
        List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Dappengine.sdk.root=" + sdk.getParent(),
            "-cp",
            GoogleStagingCheck.testClasses() + File.pathSeparator + GoogleApiServer.classPath(),
            GoogleStagingCheck.class.getName(),
            copy.toString());
    Process google = new ProcessBuilder(command).redirectErrorStream(true).start();
    String yaml = new String(google.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(google.waitFor(120, TimeUnit.SECONDS));
    assertEquals(0, google.exitValue(), yaml);
    assertTrue(yaml.contains("entrypoint: '" + entrypoint() + "'"), yaml);
    assertTrue(yaml.contains("runtime: java21"), yaml);
    assertTrue(yaml.contains("app_engine_apis: True"), yaml);
  }

  @Test
  void theEntrypoint_servesTheApp_withThePlatformsApiHostAndFrontEnd() throws Exception {
    try (GoogleApiServer apiServer = GoogleApiServer.start();
        RecordingForwarder recorder = new RecordingForwarder(apiServer.portBlocking())) {
      int apiPort = recorder.port();
      List<String> command = new ArrayList<>(List.of(entrypoint().split(" ")));
      assertEquals("java", command.get(0));
      // The platform's java is on its PATH; here it is the tests' JVM.
      command.set(0, Path.of(System.getProperty("java.home"), "bin", "java").toString());
      RuntimeProcess runtime =
          RuntimeProcess.start(
              command,
              staged,
              Map.of(
                  "PORT", "0",
                  "GAE_ENV", "standard",
                  "GAE_APPLICATION", "apis-sample",
                  "GAE_SERVICE", "default",
                  "GAE_VERSION", "v1",
                  "GAE_RUNTIME", "java21",
                  "API_HOST", "127.0.0.1",
                  "API_PORT", Integer.toString(apiPort)));
      try {
        runtime.port();
        assertTrue(runtime.output().contains("127.0.0.1:" + apiPort), runtime.output());
        // The front end's API ticket is the one the calls of its request carry.
        call(
            runtime,
            "put?name=standard&value=v-standard",
            "X-AppEngine-Api-Ticket: platform-ticket-7");
        assertEquals("v-standard", value(call(runtime, "get?name=standard"), "value"));
        assertTrue(recorder.sawBytes("platform-ticket-7"), "the ticket reaches the API host");
        // The platform's front end is believed: its cron header reaches the app as one.
        RawResponse cron =
            RawResponse.get(
                runtime.port(), "/cron/record?id=from-front-end", "X-AppEngine-Cron: true");
        assertEquals(200, cron.status());
        assertEquals(
            "method=GET cron=true trustedCron=true",
            value(call(runtime, "seen?id=cron-from-front-end"), "seen"));
      } finally {
        runtime.close();
      }
    }
  }

  /**
   * Stands between the runtime and the API host (an {@code API_HOST}/{@code API_PORT} of its own):
   * forwards each call as it is and keeps the request bodies, so a test can see what the calls
   * carried.
   */
  private static final class RecordingForwarder implements AutoCloseable {
    private final HttpServer server;
    private final HttpClient client = HttpClient.newHttpClient();
    private final List<byte[]> bodies = new CopyOnWriteArrayList<>();

    RecordingForwarder(int apiPort) throws IOException {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
      server.createContext(
          "/",
          exchange -> {
            try (exchange) {
              byte[] body = exchange.getRequestBody().readAllBytes();
              bodies.add(body);
              HttpRequest.Builder forward =
                  HttpRequest.newBuilder(
                          URI.create(
                              "http://127.0.0.1:" + apiPort + exchange.getRequestURI().getPath()))
                      .POST(HttpRequest.BodyPublishers.ofByteArray(body));
              exchange
                  .getRequestHeaders()
                  .forEach(
                      (name, values) -> {
                        if (name.toLowerCase(Locale.ROOT).startsWith("x-google-rpc-")
                            || name.equalsIgnoreCase("Content-Type")) {
                          values.forEach(v -> forward.header(name, v));
                        }
                      });
              HttpResponse<byte[]> answer =
                  client.send(forward.build(), HttpResponse.BodyHandlers.ofByteArray());
              answer
                  .headers()
                  .firstValue("Content-Type")
                  .ifPresent(t -> exchange.getResponseHeaders().set("Content-Type", t));
              exchange.sendResponseHeaders(answer.statusCode(), answer.body().length);
              exchange.getResponseBody().write(answer.body());
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          });
      server.start();
    }

    int port() {
      return server.getAddress().getPort();
    }

    /** Whether a call's body held the ASCII {@code text}. */
    boolean sawBytes(String text) {
      return bodies.stream()
          .anyMatch(b -> new String(b, StandardCharsets.ISO_8859_1).contains(text));
    }

    @Override
    public void close() {
      server.stop(0);
    }
  }
}
