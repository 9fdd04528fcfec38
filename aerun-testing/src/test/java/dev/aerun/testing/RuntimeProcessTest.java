package dev.aerun.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.io.TempDir;

/** The harness with a stand-in server ({@link FakeServer}) in a real child JVM. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RuntimeProcessTest {
  @TempDir Path dir;

  private RuntimeProcess start(String mode, Map<String, String> env) throws Exception {
    List<String> command =
        List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp",
            System.getProperty("java.class.path"),
            FakeServer.class.getName(),
            mode);
    return RuntimeProcess.start("fake", command, env, dir.resolve(mode + ".log"));
  }

  @Test
  void port_isReadBackFromTheStartLine_andServes() throws Exception {
    try (RuntimeProcess server = start("serve", Map.of("GREETING", "hi"))) {
      int port = server.port();

      assertEquals("hi", RawResponse.get(port, "/GREETING").body());
      assertEquals("127.0.0.1", server.startLine().host());
      assertEquals("http://127.0.0.1:" + port + "/x", server.uri("/x").toString());
      assertTrue(server.output().startsWith("a line before the start line\n"), server.output());
      assertTrue(
          server.tail(1).startsWith("Serving fake.war on a fake server at "), server.tail(1));
      assertTrue(server.startNanos() <= System.nanoTime());
      assertTrue(server.isAlive());
    }
  }

  @Test
  void platformVariables_doNotReachTheChild_whatTheTestGivesDoes() throws Exception {
    // This module's Surefire sets them for the test JVM, as the platform or a shell would.
    for (String inherited :
        List.of("PORT", "GAE_SERVICE", "AERUN_INHERITED", "GOOGLE_CLOUD_PROJECT")) {
      assertEquals("inherited", System.getenv(inherited), inherited);
    }
    try (RuntimeProcess server = start("serve", Map.of("GAE_ENV", "given by the test"))) {
      int port = server.port();

      assertEquals("given by the test", RawResponse.get(port, "/GAE_ENV").body());
      for (String inherited :
          List.of("PORT", "GAE_SERVICE", "AERUN_INHERITED", "GOOGLE_CLOUD_PROJECT")) {
        assertEquals("null", RawResponse.get(port, "/" + inherited).body(), inherited);
      }
      assertEquals(System.getenv("PATH"), RawResponse.get(port, "/PATH").body());
    }
  }

  @Test
  void exitBeforeServing_failsWithTheExitCodeAndTheOutput() throws Exception {
    try (RuntimeProcess server = start("fail", Map.of())) {
      IllegalStateException e = assertThrows(IllegalStateException.class, server::port);

      assertTrue(e.getMessage().startsWith("fake exited (3) before serving:"), e.getMessage());
      assertTrue(e.getMessage().contains("error: cannot start"), e.getMessage());
      assertEquals(Optional.of(3), server.awaitExit(Duration.ofSeconds(10)));
    }
  }

  @Test
  void awaitOutput_returnsTheMatch() throws Exception {
    try (RuntimeProcess server = start("serve", Map.of())) {
      assertEquals(
          String.valueOf(server.port()),
          server.awaitOutput(Pattern.compile("http://127\\.0\\.0\\.1:(\\d+)/")).group(1));
    }
  }

  @Test
  void close_stopsTheChild() throws Exception {
    RuntimeProcess server = start("serve", Map.of());
    server.port();
    ProcessHandle handle = server.toHandle();

    server.close();

    assertFalse(handle.isAlive());
  }

  @Test
  void runtimes_printTheOutputOnlyForAFailedTest() throws Exception {
    Runtimes runtimes = new Runtimes();
    RuntimeProcess server = runtimes.add(start("serve", Map.of()));
    server.port();
    ExtensionContext context =
        (ExtensionContext)
            Proxy.newProxyInstance(
                ExtensionContext.class.getClassLoader(),
                new Class<?>[] {ExtensionContext.class},
                (proxy, method, args) ->
                    method.getName().equals("getDisplayName") ? "theFailedTest()" : null);
    PrintStream err = System.err;
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    System.setErr(new PrintStream(printed, true, StandardCharsets.UTF_8));
    try {
      runtimes.testSuccessful(context);
      assertEquals("", printed.toString(StandardCharsets.UTF_8));

      runtimes.testFailed(context, new AssertionError());
    } finally {
      System.setErr(err);
    }
    String shown = printed.toString(StandardCharsets.UTF_8);
    assertTrue(shown.contains("for failed test theFailedTest()"), shown);
    assertTrue(shown.contains("a line before the start line"), shown);

    runtimes.afterAll(context);
    assertFalse(server.isAlive());
  }
}
