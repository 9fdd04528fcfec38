package dev.aerun.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.testing.RuntimeProcess;
import dev.aerun.testing.Runtimes;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The launcher as users run it: {@code java -jar runtime-main.jar}, in a child JVM. */
class LauncherTest {
  @RegisterExtension static final Runtimes runtimes = new Runtimes();

  @Test
  void helpPrintsUsageAndExitsZero() throws Exception {
    RuntimeProcess runtime = runtimes.start(RuntimeProcess.launch(null).args("--help"));
    assertEquals(0, runtime.waitFor(60));
    assertTrue(runtime.output().contains("Usage: java"), runtime.output());
    assertTrue(runtime.output().contains("--trusted-proxies"), runtime.output());
  }

  @Test
  void startLineNamesModeEeJettyAddressAndStartupTime() throws Exception {
    RuntimeProcess runtime =
        runtimes.start(RuntimeProcess.launch(RuntimeProcess.app("sample-ee10-app.war")));
    runtime.port();
    Matcher line =
        Pattern.compile(
                "Serving sample-ee10-app\\.war in HttpConnector mode \\(EE10\\) on Jetty 12\\.\\S+"
                    + " at http://127\\.0\\.0\\.1:(\\d+)/ - started in (\\d+) ms")
            .matcher(runtime.output());
    assertTrue(line.find(), runtime.output());
    assertEquals(runtime.port(), Integer.parseInt(line.group(1)));
    assertEquals(200, Http.get(runtime.uri("/hello")).statusCode());
  }

  @Test
  void brokenDescriptorExitsNonZeroNamingFileLineAndElement() throws Exception {
    RuntimeProcess runtime =
        runtimes.start(RuntimeProcess.launch(RuntimeProcess.app("broken-descriptor-app.war")));
    assertEquals(1, runtime.waitFor(60));
    String output = runtime.output();
    assertTrue(output.contains("broken-descriptor-app.war!/WEB-INF/appengine-web.xml:4:"), output);
    assertTrue(output.contains("no-such-element"), output);
    assertNeverServed(output);
  }

  @Test
  void missingAppExitsNonZeroWithOneClearMessage() throws Exception {
    RuntimeProcess runtime =
        runtimes.start(RuntimeProcess.launch(Path.of("target/no-such-app.war")));
    assertEquals(1, runtime.waitFor(60));
    assertTrue(runtime.output().contains("no-such-app.war: no such app"), runtime.output());
    assertNeverServed(runtime.output());
  }

  @Test
  void unknownOptionExitsWithUsageError() throws Exception {
    RuntimeProcess runtime =
        runtimes.start(
            RuntimeProcess.launch(RuntimeProcess.app("sample-ee10-app.war")).args("--bogus"));
    assertEquals(2, runtime.waitFor(60));
    assertTrue(runtime.output().contains("unknown option --bogus"), runtime.output());
  }

  @Test
  void legacyModeFromTheDescriptorPropertyServesInProcess() throws Exception {
    RuntimeProcess runtime =
        runtimes.start(
            RuntimeProcess.launch(RuntimeProcess.app("sample-ee10-app.war"))
                .property("appengine.use.HttpConnector", "false"));
    runtime.port();
    Matcher line =
        Pattern.compile(
                "Serving sample-ee10-app\\.war in legacy RPC mode \\(EE10, inprocess transport\\)"
                    + " on Jetty 12\\.\\S+ at http://127\\.0\\.0\\.1:(\\d+)/ - started in (\\d+) ms")
            .matcher(runtime.output());
    assertTrue(line.find(), runtime.output());
    assertEquals(runtime.port(), Integer.parseInt(line.group(1)));
    assertHello(runtime);
  }

  @Test
  void legacyModeOverTcp() throws Exception {
    RuntimeProcess runtime =
        runtimes.start(
            RuntimeProcess.launch(RuntimeProcess.app("sample-ee10-app.war"))
                .args("--mode", "legacy", "--rpc-transport", "tcp"));
    assertHello(runtime);
    assertTrue(
        runtime.output().contains("in legacy RPC mode (EE10, tcp transport)"), runtime.output());
  }

  @Test
  void legacyModeOverAUnixSocket() throws Exception {
    RuntimeProcess runtime =
        runtimes.start(
            RuntimeProcess.launch(RuntimeProcess.app("sample-ee10-app.war"))
                .args("--mode", "legacy", "--rpc-transport", "unix"));
    assertHello(runtime);
    assertTrue(
        runtime.output().contains("in legacy RPC mode (EE10, unix transport)"), runtime.output());
  }

  @Test
  void legacyModeSplitInTwoProcessesOverTcp() throws Exception {
    RuntimeProcess back =
        runtimes.start(
            RuntimeProcess.launch(RuntimeProcess.app("sample-ee10-app.war"))
                .args("--role", "runtime", "--rpc-listen", "tcp:127.0.0.1:0"));
    String address =
        back.awaitOutput(
                Pattern.compile(
                    "Runtime for sample-ee10-app\\.war in legacy RPC mode \\(EE10\\)"
                        + " serving gRPC at (tcp:127\\.0\\.0\\.1:\\d+)"))
            .group(1);
    assertFalse(back.output().contains(" at http://"), back.output());

    RuntimeProcess front =
        runtimes.start(
            RuntimeProcess.launch(null).args("--role", "front", "--rpc-target", address));
    assertHello(front);
    assertTrue(
        front.output().contains("in legacy RPC mode (front end, runtime at " + address + ")"),
        front.output());

    back.stop();
    assertEquals(503, Http.get(front.uri("/hello")).statusCode());
  }

  @Test
  void frontWithoutItsRuntimeStartsAndAnswers503() throws Exception {
    RuntimeProcess front =
        runtimes.start(
            RuntimeProcess.launch(RuntimeProcess.app("sample-ee10-app.war"))
                .args("--role", "front", "--rpc-target", "tcp:127.0.0.1:1"));
    HttpResponse<String> response = Http.get(front.uri("/hello"));
    assertEquals(503, response.statusCode());
    assertFalse(response.body().contains("Exception"), response.body());
  }

  @Test
  void badRpcTargetExitsWithUsageError() throws Exception {
    RuntimeProcess runtime =
        runtimes.start(
            RuntimeProcess.launch(null).args("--role", "front", "--rpc-target", "localhost:7000"));
    assertEquals(2, runtime.waitFor(60));
    assertTrue(runtime.output().contains("error: --rpc-target: "), runtime.output());
    assertTrue(runtime.output().contains("tcp:HOST:PORT"), runtime.output());
    assertNeverServed(runtime.output());
  }

  @Test
  void badRpcTransportExitsWithUsageError() throws Exception {
    RuntimeProcess runtime =
        runtimes.start(
            RuntimeProcess.launch(RuntimeProcess.app("sample-ee10-app.war"))
                .args("--mode", "legacy", "--rpc-transport", "pigeon"));
    assertEquals(2, runtime.waitFor(60));
    assertTrue(
        runtime.output().contains("--rpc-transport must be 'inprocess', 'tcp' or 'unix'"),
        runtime.output());
    assertNeverServed(runtime.output());
  }

  @Test
  void sigtermStopsALegacyRuntime() throws Exception {
    RuntimeProcess runtime =
        runtimes.start(
            RuntimeProcess.launch(RuntimeProcess.app("sample-ee10-app.war"))
                .args("--mode", "legacy", "--rpc-transport", "tcp"));
    assertHello(runtime);
    runtime.stop();
    assertFalse(runtime.output().contains("Exception"), runtime.output());
  }

  @Test
  void ee8AppRunsOnEe8() throws Exception {
    RuntimeProcess runtime =
        runtimes.start(RuntimeProcess.launch(RuntimeProcess.app("sample-ee8-app.war")));
    HttpResponse<String> hello = Http.get(runtime.uri("/hello"));
    assertEquals("Hello from EE8", hello.body().trim());
    assertTrue(runtime.output().contains("in HttpConnector mode (EE8)"), runtime.output());
  }

  @Test
  void ee11AppRunsOnEe11() throws Exception {
    RuntimeProcess runtime =
        runtimes.start(RuntimeProcess.launch(RuntimeProcess.app("sample-ee11-app.war")));
    HttpResponse<String> hello = Http.get(runtime.uri("/hello"));
    assertEquals("Hello from EE11", hello.body().trim());
    assertTrue(runtime.output().contains("in HttpConnector mode (EE11)"), runtime.output());
  }

  @Test
  void jetty121FlagMovesAJava21AppToEe11() throws Exception {
    RuntimeProcess runtime =
        runtimes.start(
            RuntimeProcess.launch(RuntimeProcess.app("sample-ee10-app.war"))
                .property("appengine.use.jetty121", "true"));
    assertEquals("Hello from EE10", Http.get(runtime.uri("/hello")).body().trim());
    assertTrue(runtime.output().contains("in HttpConnector mode (EE11)"), runtime.output());
  }

  @Test
  void modeOptionOverridesTheDescriptor() throws Exception {
    RuntimeProcess runtime =
        runtimes.start(
            RuntimeProcess.launch(RuntimeProcess.app("sample-ee10-app.war"))
                .args("--mode", "legacy"));
    assertHello(runtime);
    assertTrue(runtime.output().contains("in legacy RPC mode (EE10"), runtime.output());
  }

  @Test
  void gaeRuntimeFromTheEnvironmentOverridesTheDescriptor() throws Exception {
    RuntimeProcess runtime =
        runtimes.start(
            RuntimeProcess.launch(RuntimeProcess.app("sample-ee10-app.war"))
                .env("GAE_RUNTIME", "java99"));
    assertEquals(1, runtime.waitFor(60));
    assertTrue(runtime.output().contains("java99"), runtime.output());
    assertTrue(runtime.output().contains("java17"), runtime.output());
    assertNeverServed(runtime.output());
  }

  @Test
  void twoEeFlagsAreAnError() throws Exception {
    RuntimeProcess runtime =
        runtimes.start(
            RuntimeProcess.launch(RuntimeProcess.app("sample-ee10-app.war"))
                .property("appengine.use.EE8", "true")
                .property("appengine.use.EE10", "true"));
    assertEquals(1, runtime.waitFor(60));
    assertTrue(runtime.output().contains("appengine.use.EE8"), runtime.output());
    assertNeverServed(runtime.output());
  }

  @Test
  void sigtermStopsTheRuntime() throws Exception {
    RuntimeProcess runtime =
        runtimes.start(RuntimeProcess.launch(RuntimeProcess.app("sample-ee10-app.war")));
    assertEquals(200, Http.get(runtime.uri("/hello")).statusCode());
    runtime.stop();
    assertFalse(runtime.output().contains("Exception"), runtime.output());
  }

  private static void assertHello(RuntimeProcess runtime) throws Exception {
    HttpResponse<String> hello = Http.get(runtime.uri("/hello"));
    assertEquals(200, hello.statusCode(), runtime.output());
    assertEquals("Hello from EE10", hello.body().trim());
  }

  @Test
  void tempDirKeepsWhatElseIsInIt_andLeavesNothingBehind(@TempDir Path dir) throws Exception {
    Path precious = Files.writeString(dir.resolve("precious.txt"), "keep me");
    RuntimeProcess runtime =
        runtimes.start(
            RuntimeProcess.launch(RuntimeProcess.app("sample-ee10-app.war"))
                .args("--temp-dir", dir.toString()));
    assertEquals(200, Http.get(runtime.uri("/hello")).statusCode());
    try (Stream<Path> files = Files.list(dir)) {
      assertTrue(
          files.anyMatch(f -> f.getFileName().toString().startsWith("aerun-webapp-")),
          "the runtime works in a directory of its own");
    }
    assertEquals("keep me", Files.readString(precious), "a file beside it survives start-up");

    assertEquals(0, runtime.stop(), runtime.output());

    assertEquals("keep me", Files.readString(precious), "a file beside it survives the stop");
    try (Stream<Path> files = Files.list(dir)) {
      assertEquals(List.of(precious), files.toList(), "the runtime removed its own directory");
    }
  }

  @Test
  void aRuntimeKilledWithSigkill_hasItsDirectoryRemovedByTheNextStart(@TempDir Path dir)
      throws Exception {
    RuntimeProcess killed =
        runtimes.start(
            RuntimeProcess.launch(RuntimeProcess.app("sample-ee10-app.war"))
                .args("--temp-dir", dir.toString()));
    assertEquals(200, Http.get(killed.uri("/hello")).statusCode());
    List<Path> left = workDirectories(dir);
    assertEquals(1, left.size(), left.toString());
    // kill -9, the app's JVM too (this app's <env-variables> make the launcher start it anew):
    // no shutdown hook runs.
    killed.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
    killed.toHandle().destroyForcibly();
    killed.awaitExit(Duration.ofSeconds(60));
    assertTrue(Files.isDirectory(left.get(0)), "SIGKILL leaves the directory behind");

    RuntimeProcess next =
        runtimes.start(
            RuntimeProcess.launch(RuntimeProcess.app("sample-ee10-app.war"))
                .args("--temp-dir", dir.toString()));
    assertEquals(200, Http.get(next.uri("/hello")).statusCode());
    // The sweep runs in the background once the runtime serves, and logs when it is done.
    next.awaitOutput(Pattern.compile("removed 1 working directory left in .* by runtimes"));
    assertFalse(Files.exists(left.get(0)), next.output());
    assertEquals(1, workDirectories(dir).size(), "the live runtime's own stays");

    assertEquals(0, next.stop(), next.output());
    assertEquals(List.of(), workDirectories(dir));
  }

  @Test
  void theAppsJvmStopsWhenTheLauncherThatStartedItAnewIsKilled(@TempDir Path dir) throws Exception {
    RuntimeProcess launcher =
        runtimes.start(
            RuntimeProcess.launch(RuntimeProcess.app("sample-ee10-app.war"))
                .args("--temp-dir", dir.toString()));
    assertEquals(200, Http.get(launcher.uri("/hello")).statusCode());
    // This app's <env-variables> make the launcher start the app's JVM anew, as its child.
    ProcessHandle child = launcher.toHandle().children().findFirst().orElseThrow();

    launcher.toHandle().destroyForcibly(); // kill -9: the launcher cannot stop its child

    child.onExit().get(60, TimeUnit.SECONDS);
    assertEquals(List.of(), workDirectories(dir), "it stopped as on SIGTERM, and cleaned up");
  }

  private static List<Path> workDirectories(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(f -> f.getFileName().toString().startsWith("aerun-webapp-")).toList();
    }
  }

  private static void assertNeverServed(String output) {
    assertFalse(output.contains("Serving "), output);
    assertFalse(output.contains("Started ServerConnector"), output);
  }
}
