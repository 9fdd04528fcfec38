package dev.aerun.e2e.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.aerun.testing.AppCopies;
import dev.aerun.testing.RuntimeProcess;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * In an exploded app, a symbolic link out of the app, or into {@code WEB-INF}, is not served by the
 * app's default servlet (the requests that are not static files fall through to it); a link to
 * another file of the app still is.
 */
class SymlinkTest {
  private static final String SECRET = "secret outside the app";

  @TempDir Path tmp;

  @ParameterizedTest(name = "{0} in {1} mode")
  @CsvSource({
    "sample-static-app.war, http",
    "sample-static-app.war, legacy",
    "sample-ee8-app.war, http",
    "sample-ee8-app.war, legacy"
  })
  void linksOutOfTheAppOrIntoWebInfAreNotServed(String sample, String mode) throws Exception {
    Path app = AppCopies.explode(RuntimeProcess.app(sample), tmp.resolve("app"));
    Path outside = Files.writeString(tmp.resolve("outside.txt"), SECRET);
    Files.writeString(app.resolve("inside.txt"), "inside the app");
    // Every machine the project builds on has symbolic links: a failure to make one fails the test.
    Files.createSymbolicLink(app.resolve("passwd"), outside);
    Files.createSymbolicLink(app.resolve("pub"), app.resolve("WEB-INF"));
    Files.createSymbolicLink(app.resolve("pub-relative"), Path.of("WEB-INF"));
    Files.createSymbolicLink(app.resolve("alias.txt"), Path.of("inside.txt"));

    try (RuntimeProcess runtime =
        RuntimeProcess.launch(app)
            .args("--mode", mode)
            .env("SAMPLE_ENV", "from-appengine-web-xml") // the EE8 sample's <env-variables>
            .start()) {
      assertRefused(runtime, "/passwd");
      assertRefused(runtime, "/pub/appengine-web.xml");
      assertRefused(runtime, "/pub/web.xml");
      assertRefused(runtime, "/pub-relative/appengine-web.xml");
      assertRefused(runtime, "/PUB/appengine-web.xml");

      HttpResponse<String> alias = WarExtractionTest.get(runtime.uri("/alias.txt"));
      assertEquals(200, alias.statusCode(), runtime.output());
      assertEquals("inside the app", alias.body());
    }
  }

  private static void assertRefused(RuntimeProcess runtime, String path) throws Exception {
    HttpResponse<String> response = WarExtractionTest.get(runtime.uri(path));
    assertNotEquals(200, response.statusCode(), path + " served:\n" + response.body());
    assertFalse(response.body().contains(SECRET), path);
    assertFalse(response.body().contains("appengine-web-app"), path);
    assertFalse(response.body().contains("<web-app"), path);
  }
}
