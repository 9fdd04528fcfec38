package dev.aerun.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.testing.AppCopies;
import dev.aerun.testing.RuntimeProcess;
import dev.aerun.testing.Runtimes;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * An app with no JSP starts without JSP support (no Jasper, no tag library scan, the JSP stack's
 * jars not on its class path), and everything else it does still works, on every EE version and in
 * both modes.
 */
class NoJspAppTest {
  @RegisterExtension static final Runtimes runtimes = new Runtimes();

  @TempDir Path dir;

  @ParameterizedTest
  @CsvSource({
    "sample-ee10-app.war, http, EE10",
    "sample-ee10-app.war, legacy, EE10",
    "sample-ee11-app.war, http, EE11",
    "sample-ee11-app.war, legacy, EE11",
    "sample-ee8-app.war, http, EE8",
    "sample-ee8-app.war, legacy, EE8"
  })
  void appWithoutJsp_startsWithoutJspSupport_andServes(String war, String mode, String ee)
      throws Exception {
    Path app = AppCopies.withDescriptorEdit(RuntimeProcess.app(war), dir, "<runtime>", "<runtime>");
    Files.delete(app.resolve("jstl.jsp"));
    RuntimeProcess runtime =
        runtimes.start(RuntimeProcess.launch(app).args("--log-format", "text", "--mode", mode));

    assertEquals("Hello from " + ee, Http.get(runtime.uri("/hello")).body().trim());
    assertEquals(200, Http.get(runtime.uri("/fragment")).statusCode());
    assertEquals(200, Http.get(runtime.uri("/async?quiet=true")).statusCode());
    assertEquals(404, Http.get(runtime.uri("/jstl.jsp")).statusCode());
    assertTrue(
        runtime
            .output()
            .contains("has no JSP, tag file or tag library: JSP support is not started"),
        runtime.output());
  }
}
