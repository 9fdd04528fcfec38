package dev.aerun.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.testing.AppCopies;
import dev.aerun.testing.RuntimeProcess;
import dev.aerun.testing.Runtimes;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every way an app fails to start ends in exit 1 and one {@code error:} line that says what to do,
 * with no stack trace at the default log level, in text or JSON.
 */
class StartFailuresTest {
  @RegisterExtension static final Runtimes runtimes = new Runtimes();

  /** Runs {@code launch} to its end and returns its one error line, checking the rest. */
  private static String failsWithOneErrorLine(RuntimeProcess.Launch launch) throws Exception {
    RuntimeProcess runtime = runtimes.start(launch);
    assertEquals(1, runtime.waitFor(120), runtime.output());
    String output = runtime.output();
    List<String> errors = output.lines().filter(l -> l.startsWith("error: ")).toList();
    assertEquals(1, errors.size(), output);
    assertFalse(output.contains("Exception in thread"), output);
    assertFalse(output.lines().anyMatch(l -> l.matches("\\s+at \\S+\\(.*")), output);
    assertFalse(output.contains("\\tat "), "a stack trace in a JSON line:\n" + output);
    assertFalse(output.contains("Serving "), output);
    return errors.get(0);
  }

  @ParameterizedTest
  @ValueSource(strings = {"text", "json"})
  void appCompiledForANewerJava_namesTheClassItsJavaAndTheJvms(String format, @TempDir Path dir)
      throws Exception {
    int jvm = Runtime.version().feature();
    int newer = Math.max(25, jvm + 1);
    Path app =
        AppCopies.withClassForJava(
            RuntimeProcess.app("sample-ee10-app.war"),
            dir,
            "dev.aerun.sample.StartupListener",
            newer);

    String error =
        failsWithOneErrorLine(
            RuntimeProcess.launch(app).args("--log-format", format).env("SAMPLE_ENV", "set"));

    assertTrue(error.contains("is compiled for Java " + newer), error);
    assertTrue(error.contains("but this JVM is Java " + jvm), error);
    assertTrue(error.contains("--release " + jvm), error);
  }

  @Test
  void jakartaAppOnEe8_saysWhyEe8AndWhichFlagChangesIt() throws Exception {
    String error =
        failsWithOneErrorLine(
            RuntimeProcess.launch(RuntimeProcess.app("sample-ee10-app.war"))
                .jvmOption("-Dappengine.use.EE8=true")
                .env("SAMPLE_ENV", "set"));

    assertTrue(error.contains("the app uses jakarta.servlet"), error);
    assertTrue(error.contains("runs on EE8 (javax.servlet), chosen by appengine.use.EE8=true"));
    assertTrue(error.contains("set appengine.use.EE10=true"), error);
  }

  @Test
  void javaxAppOnEe10_saysWhyEe10AndWhichFlagChangesIt() throws Exception {
    String error =
        failsWithOneErrorLine(
            RuntimeProcess.launch(RuntimeProcess.app("sample-ee8-app.war"))
                .jvmOption("-Dappengine.use.EE10=true")
                .env("SAMPLE_ENV", "set"));

    assertTrue(error.contains("the app uses javax.servlet"), error);
    assertTrue(error.contains("runs on EE10 (jakarta.servlet), chosen by appengine.use.EE10=true"));
    assertTrue(error.contains("set appengine.use.EE8=true"), error);
  }

  @ParameterizedTest
  @ValueSource(strings = {"text", "json"})
  void classThatCannotLoad_namesWhatIsMissing(String format) throws Exception {
    String error =
        failsWithOneErrorLine(
            RuntimeProcess.launch(RuntimeProcess.app("sample-bundled-server-app.war"))
                .args("--log-format", format));

    assertTrue(
        error.contains("org.eclipse.jetty.util.component.AbstractLifeCycle is missing"), error);
    assertTrue(error.contains("WEB-INF/lib"), error);
  }

  @ParameterizedTest
  @CsvSource({
    "sample-initializer-ee10.war, http",
    "sample-initializer-ee10.war, legacy",
    "sample-initializer-ee8.war, http",
    "sample-initializer-ee8.war, legacy"
  })
  void initializerWhoseStaticInitThrows_stopsTheStart_namingItAndItsWarEntry(
      String war, String mode) throws Exception {
    String error =
        failsWithOneErrorLine(RuntimeProcess.launch(RuntimeProcess.app(war)).args("--mode", mode));

    assertTrue(
        error.contains(
            "the ServletContainerInitializer dev.aerun.sample.initializer.BrokenInitializer"
                + " declared in WEB-INF/classes failed to load"),
        error);
    assertTrue(error.contains("fix it or remove it from the app"), error);
  }

  @ParameterizedTest
  @ValueSource(strings = {"http", "legacy"})
  void initializerWhoseClassIsMissing_stopsTheStart(String mode, @TempDir Path dir)
      throws Exception {
    Path app =
        AppCopies.withEdit(
            RuntimeProcess.app("sample-initializer-ee10.war"),
            dir,
            "WEB-INF/classes/META-INF/services/jakarta.servlet.ServletContainerInitializer",
            "BrokenInitializer",
            "MissingInitializer");

    String error = failsWithOneErrorLine(RuntimeProcess.launch(app).args("--mode", mode));

    assertTrue(
        error.contains(
            "the ServletContainerInitializer dev.aerun.sample.initializer.MissingInitializer"
                + " declared in WEB-INF/classes failed to load"),
        error);
    assertTrue(error.contains("ClassNotFoundException"), error);
  }

  @Test
  void detailsAtTheDebugLevel() throws Exception {
    RuntimeProcess runtime =
        runtimes.start(
            RuntimeProcess.launch(RuntimeProcess.app("sample-bundled-server-app.war"))
                .jvmOption("-Daerun.log.debug=true")
                .args("--log-format", "text"));

    assertEquals(1, runtime.waitFor(120), runtime.output());
    assertTrue(runtime.output().contains("start-up failed"), runtime.output());
    assertTrue(runtime.output().lines().anyMatch(l -> l.matches("\\s+at \\S+\\(.*")));
  }

  @Test
  void maxConcurrentRequestsNoInstanceCanTake_isADescriptorError(@TempDir Path dir)
      throws Exception {
    Path app =
        AppCopies.withDescriptorEdit(
            RuntimeProcess.app("sample-ee10-app.war"),
            dir,
            "<runtime>java21</runtime>",
            "<runtime>java21</runtime><automatic-scaling>"
                + "<max-concurrent-requests>2147483647</max-concurrent-requests>"
                + "</automatic-scaling>");

    String error = failsWithOneErrorLine(RuntimeProcess.launch(app));

    assertTrue(
        error.matches(
            "error: .*WEB-INF/appengine-web.xml:3:\\d+: max-concurrent-requests: value 2147483647"
                + " is more than 1000.*"),
        error);
  }

  @Test
  void ee10OnJava25_isADescriptorErrorAtTheProperty(@TempDir Path dir) throws Exception {
    Path app =
        AppCopies.withDescriptorEdit(
            RuntimeProcess.app("sample-ee10-app.war"),
            dir,
            "<runtime>java21</runtime>\n  <system-properties>",
            "<runtime>java25</runtime>\n  <system-properties>\n"
                + "    <property name=\"appengine.use.EE10\" value=\"true\"/>");

    String error = failsWithOneErrorLine(RuntimeProcess.launch(app));

    assertTrue(
        error.matches(
            "error: .*WEB-INF/appengine-web.xml:5:5: property: appengine.use.EE10=true is not"
                + " supported for runtime java25 .*"),
        error);
  }

  @Test
  void publicRootOutsideTheApp_isADescriptorError(@TempDir Path dir) throws Exception {
    Path app =
        AppCopies.withDescriptorEdit(
            RuntimeProcess.app("sample-ee10-app.war"),
            dir,
            "<runtime>java21</runtime>",
            "<runtime>java21</runtime><public-root>/../../etc</public-root>");

    String error = failsWithOneErrorLine(RuntimeProcess.launch(app));

    assertTrue(
        error.matches(
            "error: .*WEB-INF/appengine-web.xml:3:\\d+: public-root: \"/../../etc\" is outside"
                + " the app.*"),
        error);
  }

  @ParameterizedTest
  @ValueSource(strings = {"http", "legacy"})
  void portInUse_namesAddressAndPort_beforeTheAppIsDeployed(String mode) throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      int port = taken.getLocalPort();
      RuntimeProcess runtime =
          runtimes.start(
              RuntimeProcess.launch(RuntimeProcess.app("sample-ee10-app.war"))
                  .env("SAMPLE_ENV", "set")
                  .args("--mode", mode, "--log-format", "text", "--port", String.valueOf(port)));

      assertEquals(1, runtime.waitFor(120), runtime.output());
      String output = runtime.output();
      assertTrue(
          output.contains(
              "error: cannot listen on 127.0.0.1:" + port + ": the port is already in use"),
          output);
      assertFalse(output.contains("sample-ee10-app started"), "the app was deployed:\n" + output);
      assertFalse(output.contains("Deploying "), "the app was deployed:\n" + output);
    }
  }
}
