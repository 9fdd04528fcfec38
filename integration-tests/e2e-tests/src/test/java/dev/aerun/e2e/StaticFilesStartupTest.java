package dev.aerun.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.testing.AppCopies;
import dev.aerun.testing.RuntimeProcess;
import dev.aerun.testing.Runtimes;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Static-file settings that cannot work stop the start-up with one clear line. */
class StaticFilesStartupTest {
  @RegisterExtension final Runtimes runtimes = new Runtimes();
  @TempDir Path tmp;

  private RuntimeProcess startEdited(String from, String to) throws Exception {
    Path app =
        AppCopies.withDescriptorEdit(
            RuntimeProcess.app("sample-static-app.war"), tmp.resolve("app"), from, to);
    return runtimes.start(RuntimeProcess.launch(app));
  }

  @Test
  void missingStaticErrorHandlerFileFailsStartup() throws Exception {
    RuntimeProcess runtime =
        startEdited("public/errors/default.html", "public/errors/no-such-page.html");
    assertEquals(1, runtime.waitFor(60));
    String output = runtime.output();
    assertTrue(output.contains("error: "), output);
    assertTrue(output.contains("no-such-page.html"), output);
  }

  @Test
  void missingPublicRootFailsStartup() throws Exception {
    RuntimeProcess runtime =
        startEdited("<public-root>/public</public-root>", "<public-root>/nowhere</public-root>");
    assertEquals(1, runtime.waitFor(60));
    String output = runtime.output();
    assertTrue(output.contains("error: "), output);
    assertTrue(output.contains("/nowhere"), output);
  }
}
