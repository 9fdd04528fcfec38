package dev.aerun.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.aerun.testing.RuntimeProcess;
import dev.aerun.testing.Runtimes;
import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * An app never sees the runtime's own libraries, on every EE version and in both modes: with its
 * own SLF4J 2 and Logback, an old Guava and another protobuf, it gets its own copies, and the
 * runtime's classes cannot even be loaded.
 */
class IsolationTest {
  @RegisterExtension static final Runtimes runtimes = new Runtimes();

  private static Map<String, String> facts(HttpResponse<String> response) {
    assertEquals(200, response.statusCode(), response.body());
    Map<String, String> facts = new LinkedHashMap<>();
    response
        .body()
        .lines()
        .forEach(l -> facts.put(l.substring(0, l.indexOf('=')), l.substring(l.indexOf('=') + 1)));
    return facts;
  }

  @ParameterizedTest
  @CsvSource({
    "sample-isolation-ee8.war, http",
    "sample-isolation-ee8.war, legacy",
    "sample-isolation-app.war, http",
    "sample-isolation-app.war, legacy",
    "sample-isolation-ee11.war, http",
    "sample-isolation-ee11.war, legacy"
  })
  void theAppsOwnLibrariesWin_andTheRuntimesAreInvisible(String war, String mode) throws Exception {
    RuntimeProcess runtime =
        runtimes.start(
            RuntimeProcess.launch(RuntimeProcess.app(war))
                .args("--mode", mode, "--log-format", "text"));

    Map<String, String> facts =
        facts(Http.get(runtime.uri("/isolation?log=isolation-logback-line-" + mode)));

    assertEquals(
        "ch.qos.logback.classic.LoggerContext", facts.get("slf4j.factory"), facts::toString);
    assertEquals("slf4j-api-2.0.17.jar", facts.get("slf4j.api"));
    assertEquals("guava-16.0.1.jar", facts.get("guava"));
    assertEquals("protobuf-java-3.21.12.jar", facts.get("protobuf"));
    assertEquals("x{a=1}", facts.get("guava.toStringHelper"));
    facts.forEach(
        (name, value) -> {
          if (name.startsWith("visible.")) {
            assertEquals("false", value, name + " is visible to the app");
          }
        });
    runtime.awaitOutput(
        Pattern.compile(Pattern.quote("LOGBACK INFO IsolationServlet - isolation-logback-line-")));
    String output = runtime.output();
    assertFalse(output.contains("SLF4J(W)"), "SLF4J complained:\n" + output);
    assertFalse(output.contains("not a subtype"), output);
  }

  @ParameterizedTest
  @CsvSource({
    "sample-logging-ee8-app.war, http",
    "sample-logging-ee8-app.war, legacy",
    "sample-logging-ee10-app.war, http",
    "sample-logging-ee10-app.war, legacy"
  })
  void anAppWithOnlySlf4jApi_logsThroughTheRuntime(String war, String mode) throws Exception {
    RuntimeProcess runtime =
        runtimes.start(
            RuntimeProcess.launch(RuntimeProcess.app(war))
                .args("--mode", mode, "--log-format", "text"));

    assertEquals(200, Http.get(runtime.uri("/log?id=only-api-" + mode)).statusCode());

    runtime.awaitOutput(
        Pattern.compile(
            Pattern.quote("WARNING dev.aerun.sample.logging.LogServlet - slf4j line only-api-")));
    String output = runtime.output();
    assertFalse(output.contains("SLF4J(W)"), "SLF4J complained:\n" + output);
  }
}
