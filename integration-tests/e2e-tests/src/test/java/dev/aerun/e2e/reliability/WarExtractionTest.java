package dev.aerun.e2e.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.testing.RuntimeProcess;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The runtime unpacks a WAR itself and refuses one that would write outside its own directory, or
 * unpack without bound: one {@code error:} line naming the entry, exit 1, nothing written outside,
 * nothing left behind. In both modes, with and without {@code --temp-dir}.
 */
class WarExtractionTest {
  @TempDir Path tmp;

  static Stream<Arguments> modesAndTempDirs() {
    return Stream.of(
        Arguments.of("http", false),
        Arguments.of("http", true),
        Arguments.of("legacy", false),
        Arguments.of("legacy", true));
  }

  /** One configuration of each mode, one of them with --temp-dir. */
  static Stream<Arguments> eachMode() {
    return Stream.of(Arguments.of("http", false), Arguments.of("legacy", true));
  }

  private static Path staticApp() {
    return RuntimeProcess.app("sample-static-app.war");
  }

  /** Starts the runtime on {@code war} and returns its exit code and output once it exits. */
  private String refused(Path war, String mode, boolean tempDir, String... args) throws Exception {
    RuntimeProcess.Launch launch = RuntimeProcess.launch(war).args("--mode", mode).args(args);
    Path temp = tmp.resolve("temp");
    if (tempDir) {
      Files.createDirectories(temp);
      launch.args("--temp-dir", temp.toString());
    }
    try (RuntimeProcess runtime = launch.start()) {
      int exit = runtime.waitFor(120);
      String output = runtime.output();
      assertEquals(1, exit, output);
      assertFalse(output.contains("Serving "), output);
      assertTrue(output.lines().anyMatch(l -> l.startsWith("error: ")), output);
      assertFalse(output.contains("Exception"), output);
      if (tempDir) {
        assertEquals(java.util.List.of(), TestWars.workDirectories(temp), output);
      }
      return output;
    }
  }

  @ParameterizedTest(name = "{0} mode, --temp-dir {1}")
  @MethodSource("modesAndTempDirs")
  void backslashEntryThatLeavesTheAppIsRefused(String mode, boolean tempDir) throws Exception {
    // Deep enough to reach the file system's root from any temporary directory.
    String target = "aerun-slip-" + UUID.randomUUID() + ".txt";
    String name = "..\\".repeat(30) + "tmp\\" + target;
    Path war = TestWars.from(staticApp()).entry(name, "escaped").write(tmp.resolve("slip.war"));

    String output = refused(war, mode, tempDir);

    assertTrue(output.contains(name), output);
    assertTrue(output.contains("leaves the app"), output);
    assertFalse(Files.exists(Path.of("/tmp", target)), "written outside the app: /tmp/" + target);
    assertFalse(Files.exists(tmp.resolve(target)));
  }

  @ParameterizedTest(name = "{0} mode, --temp-dir {1}")
  @MethodSource("eachMode")
  void dotDotSlashEntryIsRefusedSayingWhy(String mode, boolean tempDir) throws Exception {
    String name = "../../escaped-" + UUID.randomUUID() + ".txt";
    Path war = TestWars.from(staticApp()).entry(name, "escaped").write(tmp.resolve("dots.war"));

    String output = refused(war, mode, tempDir);

    assertTrue(output.contains(name), output);
    assertTrue(output.contains("leaves the app"), output);
    assertFalse(output.contains("ProviderNotFound"), output);
  }

  @Test
  void absoluteEntryIsRefused() throws Exception {
    String name = "/tmp/aerun-absolute-" + UUID.randomUUID() + ".txt";
    Path war = TestWars.from(staticApp()).entry(name, "escaped").write(tmp.resolve("abs.war"));

    String output = refused(war, "http", true);

    assertTrue(output.contains(name), output);
    assertTrue(output.contains("absolute"), output);
    assertFalse(Files.exists(Path.of(name)));
  }

  @Test
  void driveLetterEntryIsRefused() throws Exception {
    String name = "C:\\Windows\\aerun-" + UUID.randomUUID() + ".txt";
    Path war = TestWars.from(staticApp()).entry(name, "escaped").write(tmp.resolve("drive.war"));

    String output = refused(war, "legacy", false);

    assertTrue(output.contains(name), output);
    assertTrue(output.contains("drive"), output);
  }

  @ParameterizedTest(name = "{0} mode, --temp-dir {1}")
  @MethodSource("eachMode")
  void unpackedSizeIsBounded(String mode, boolean tempDir) throws Exception {
    Path war =
        TestWars.from(staticApp())
            .zeros("bomb/zeros.bin", 8L * 1024 * 1024)
            .write(tmp.resolve("bomb.war"));

    String output = refused(war, mode, tempDir, "--max-war-size", "4m");

    assertTrue(output.contains("bomb/zeros.bin"), output);
    assertTrue(output.contains("--max-war-size"), output);
  }

  @Test
  void entryCountIsBounded() throws Exception {
    Path war = TestWars.from(staticApp()).filler(200).write(tmp.resolve("many.war"));

    String output = refused(war, "http", true, "--max-war-entries", "100");

    assertTrue(output.contains("--max-war-entries"), output);
    assertTrue(output.contains("100"), output);
  }

  @Test
  void raisedLimitsServeTheSameWar() throws Exception {
    Path war =
        TestWars.from(staticApp())
            .filler(200)
            .zeros("bomb/zeros.bin", 8L * 1024 * 1024)
            .write(tmp.resolve("big.war"));
    Path temp = Files.createDirectories(tmp.resolve("temp"));
    try (RuntimeProcess runtime =
        RuntimeProcess.launch(war)
            .args("--temp-dir", temp.toString())
            .args("--max-war-entries", "1000", "--max-war-size", "64m")
            .start()) {
      HttpResponse<String> response = get(runtime.uri("/css/site.css"));
      assertEquals(200, response.statusCode(), runtime.output());
      assertEquals(1, TestWars.workDirectories(temp).size());
      assertEquals(0, runtime.stop(), runtime.output());
      assertEquals(java.util.List.of(), TestWars.workDirectories(temp), runtime.output());
    }
  }

  static HttpResponse<String> get(URI uri) throws Exception {
    return HttpClient.newHttpClient()
        .send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
  }
}
