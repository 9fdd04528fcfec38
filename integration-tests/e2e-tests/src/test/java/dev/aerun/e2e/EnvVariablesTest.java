package dev.aerun.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aerun.testing.AppCopies;
import dev.aerun.testing.RuntimeProcess;
import dev.aerun.testing.Runtimes;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The descriptor's {@code <env-variables>} reach the app's {@code System.getenv()}: the launcher
 * starts the serving JVM again with them when the environment lacks them (the sample apps set
 * {@code SAMPLE_ENV}), keeps the environment's own value when it has another, passes on the
 * platform's own names without letting them configure the runtime, and refuses the launcher's.
 */
class EnvVariablesTest {
  @RegisterExtension static final Runtimes runtimes = new Runtimes();

  private static final String RELAUNCHED = "Starting the app's JVM again with 1 variable(s)";

  private static String sampleEnv(RuntimeProcess runtime) throws Exception {
    JsonNode info = Http.requestInfo(runtime.uri("/request-info"));
    return info.path("env").path("SAMPLE_ENV").asText(null);
  }

  @ParameterizedTest
  @ValueSource(strings = {"http", "legacy"})
  void missingFromTheEnvironment_theAppSeesTheDescriptorsValue(String mode) throws Exception {
    RuntimeProcess runtime =
        runtimes.start(
            RuntimeProcess.launch(RuntimeProcess.app("sample-ee8-app.war"))
                .args("--log-format", "text", "--mode", mode));

    assertEquals("from-appengine-web-xml", sampleEnv(runtime));
    assertTrue(runtime.output().contains(RELAUNCHED + " from <env-variables>: SAMPLE_ENV"));
  }

  @Test
  void alreadyInTheEnvironment_asOnThePlatform_noRelaunch() throws Exception {
    RuntimeProcess runtime =
        runtimes.start(
            RuntimeProcess.launch(RuntimeProcess.app("sample-ee10-app.war"))
                .env("SAMPLE_ENV", "from-appengine-web-xml"));

    assertEquals("from-appengine-web-xml", sampleEnv(runtime));
    assertFalse(runtime.output().contains(RELAUNCHED), runtime.output());
  }

  @Test
  void anotherValueInTheEnvironment_wins_andIsReportedByNameOnly() throws Exception {
    RuntimeProcess runtime =
        runtimes.start(
            RuntimeProcess.launch(RuntimeProcess.app("sample-ee10-app.war"))
                .args("--log-format", "text")
                .env("SAMPLE_ENV", "from-the-shell"));

    assertEquals("from-the-shell", sampleEnv(runtime));
    String output = runtime.output();
    assertFalse(output.contains(RELAUNCHED), output);
    assertEquals(
        1,
        output
            .lines()
            .filter(
                l ->
                    l.contains(
                        "<env-var name=\"SAMPLE_ENV\">: the environment already sets SAMPLE_ENV to"
                            + " another value; the app sees the environment's value"))
            .count(),
        output);
    assertFalse(output.contains("from-the-shell"), "a value was logged:\n" + output);
  }

  @Test
  void sigtermToTheLauncher_drainsTheRelaunchedRuntime_andNothingIsLeftRunning() throws Exception {
    RuntimeProcess runtime =
        runtimes.start(RuntimeProcess.launch(RuntimeProcess.app("sample-ee10-app.war")));
    runtime.port();
    List<ProcessHandle> children =
        ProcessHandle.of(runtime.pid()).orElseThrow().children().toList();
    assertEquals(1, children.size(), "the relaunched JVM");
    CompletableFuture<HttpResponse<String>> inFlight =
        HttpClient.newHttpClient()
            .sendAsync(
                HttpRequest.newBuilder(runtime.uri("/sleep?ms=1500"))
                    .timeout(Duration.ofSeconds(60))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    Http.awaitSleeping(runtime, 1);

    runtime.sendSigterm();

    assertEquals("slept 1500", inFlight.get(60, TimeUnit.SECONDS).body());
    assertEquals(0, runtime.waitFor(60), runtime.output());
    assertTrue(runtime.output().contains("drained: every request finished"), runtime.output());
    children.get(0).onExit().get(30, TimeUnit.SECONDS);
    assertFalse(children.get(0).isAlive());
  }

  @ParameterizedTest
  @ValueSource(strings = {"http", "legacy"})
  void platformVariablesInTheDescriptor_reachTheApp_butNeverTheRuntimesTrustPortOrIds(
      String mode, @TempDir Path dir) throws Exception {
    Path app =
        AppCopies.withDescriptorEdit(
            RuntimeProcess.app("sample-ee10-app.war"),
            dir,
            "<env-var name=\"SAMPLE_ENV\" value=\"from-appengine-web-xml\"/>",
            "<env-var name=\"SAMPLE_ENV\" value=\"from-appengine-web-xml\"/>"
                + "<env-var name=\"GAE_ENV\" value=\"descriptor-gae-env\"/>"
                + "<env-var name=\"PORT\" value=\"1\"/>"
                + "<env-var name=\"GAE_APPLICATION\" value=\"descriptor-app-id\"/>");
    RuntimeProcess runtime =
        runtimes.start(RuntimeProcess.launch(app).args("--log-format", "text", "--mode", mode));

    // A trusted front end's headers would make these the remote address and https.
    JsonNode info =
        Http.requestInfo(
            runtime.uri("/request-info"),
            "X-AppEngine-User-IP",
            "203.0.113.9",
            "X-AppEngine-Https",
            "on");
    assertEquals("127.0.0.1", info.path("remoteAddr").asText(), info.toString());
    assertFalse(info.path("secure").asBoolean(), info.toString());
    assertFalse(info.toString().contains("descriptor-app-id"), info.toString());
    assertEquals("from-appengine-web-xml", info.path("env").path("SAMPLE_ENV").asText());
    String output = runtime.output();
    for (String name : List.of("GAE_ENV", "PORT", "GAE_APPLICATION")) {
      assertTrue(
          output.contains("env-var: environment variable " + name + " is one the platform sets"),
          output);
    }
    assertFalse(output.contains("descriptor-gae-env"), "a value was logged:\n" + output);
  }

  @Test
  void launcherVariableInTheDescriptor_exit1_namingFileLineAndElement(@TempDir Path dir)
      throws Exception {
    Path app =
        AppCopies.withDescriptorEdit(
            RuntimeProcess.app("sample-ee10-app.war"),
            dir,
            "<env-var name=\"SAMPLE_ENV\"",
            "<env-var name=\"AERUN_APP\"");
    RuntimeProcess runtime =
        runtimes.start(RuntimeProcess.launch(app).args("--log-format", "text"));

    assertEquals(1, runtime.waitFor(60), runtime.output());
    assertTrue(
        Pattern.compile(
                "(?m)^error: .*WEB-INF/appengine-web.xml:9:5: env-var: environment variable"
                    + " AERUN_APP is reserved")
            .matcher(runtime.output())
            .find(),
        runtime.output());
  }
}
