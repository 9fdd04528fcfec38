package dev.aerun.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.testing.RuntimeProcess;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The class-data archive's training run ({@code dev.aerun.main.Training}, which the images' build
 * runs, with legacy RPC mode's jars on its class path): several launcher command lines served in
 * one JVM, which then exits; a run that does not answer 200 fails it, so that no archive of a
 * broken run is baked.
 */
class TrainingTest {

  @Test
  void servesBothModesAndEeVersions_inOneJvm_thenExitsZero() throws Exception {
    String war = RuntimeProcess.app("sample-ee10-app.war").toString();
    Result r =
        train(
            "/hello,/request-info",
            "--log-format text --mode legacy --ee ee10 " + war,
            "--log-format text --mode http --ee ee11 " + war);
    assertEquals(0, r.exit(), r.output());
    assertTrue(r.output().contains("legacy RPC mode (EE10"), r.output());
    assertTrue(r.output().contains("HttpConnector mode (EE11)"), r.output());
    assertEquals(2, r.output().split("training run '", -1).length - 1, r.output());
  }

  @Test
  void aRunThatDoesNotAnswer200_failsTheTraining() throws Exception {
    String war = RuntimeProcess.app("sample-ee10-app.war").toString();
    Result r = train("/hello,/no-such-page", "--log-format text --mode http " + war);
    assertEquals(1, r.exit(), r.output());
    assertTrue(r.output().contains("error: training run"), r.output());
    assertTrue(r.output().contains("/no-such-page gave 404"), r.output());
  }

  private record Result(int exit, String output) {}

  /**
   * The runtime jar and legacy RPC mode's jars, as the images' training run has them: started with
   * {@code -cp}, the launcher cannot put lib/legacy on the class path itself.
   */
  private static String classPath() throws IOException {
    Path jar = RuntimeProcess.runtimeJar().toAbsolutePath();
    List<String> entries = new ArrayList<>(List.of(jar.toString()));
    try (Stream<Path> legacy = Files.list(jar.getParent().resolve("lib").resolve("legacy"))) {
      legacy.map(Path::toString).filter(p -> p.endsWith(".jar")).sorted().forEach(entries::add);
    }
    return String.join(File.pathSeparator, entries);
  }

  private static Result train(String paths, String... runs) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(List.of("-cp", classPath(), "dev.aerun.main.Training", paths));
    command.addAll(List.of(runs));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    // Read to the end (the process exits by itself); generous for a loaded 2-core machine.
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(5, TimeUnit.MINUTES), output);
    return new Result(p.exitValue(), output);
  }
}
