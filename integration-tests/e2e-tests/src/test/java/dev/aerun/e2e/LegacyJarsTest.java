package dev.aerun.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.testing.RuntimeProcess;
import dev.aerun.testing.Runtimes;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Legacy RPC mode's jars (gRPC, protobuf, Guava, the runtime's rpc-legacy) are in {@code
 * lib/legacy}, on the class path only when the runtime serves in that mode: in HttpConnector mode
 * the JVM never opens them (every service look-up opens every jar of the class path), in legacy
 * mode {@code java -jar} puts them on the system class path, and a JVM started with {@code -cp}
 * without them says so in one line.
 */
class LegacyJarsTest {
  @RegisterExtension static final Runtimes runtimes = new Runtimes();

  /** Jars of legacy mode by name, wherever they are. */
  private static final List<String> LEGACY_JARS =
      List.of("grpc-", "guava-", "protobuf-java-", "rpc-legacy-", "proto-google-common-protos-");

  @Test
  void httpConnectorMode_opensNoJarOfLegacyMode() throws Exception {
    RuntimeProcess runtime =
        runtimes.start(
            RuntimeProcess.launch(RuntimeProcess.app("sample-ee10-app.war"))
                .args("--log-format", "text", "--mode", "http"));
    assertEquals(200, Http.get(runtime.uri("/hello")).statusCode());

    List<String> open = openJars(runtime.pid());
    assertTrue(open.stream().anyMatch(j -> j.contains("jetty-server-")), open.toString());
    assertEquals(List.of(), open.stream().filter(LegacyJarsTest::isLegacyJar).toList());
  }

  @Test
  void legacyMode_startedWithDashJar_putsItsJarsOnTheClassPath(@TempDir Path dir) throws Exception {
    Path classes = dir.resolve("classes.txt");
    RuntimeProcess runtime =
        runtimes.start(
            RuntimeProcess.launch(RuntimeProcess.app("sample-ee10-app.war"))
                .jvmOption("-Xlog:class+load=info:file=" + classes)
                .args("--log-format", "text", "--mode", "legacy"));
    assertEquals(200, Http.get(runtime.uri("/hello")).statusCode());
    assertTrue(runtime.output().contains("legacy RPC mode (EE10"), runtime.output());

    // Loaded by the system class loader from lib/legacy, as from the manifest's class path before.
    String loaded = Files.readString(classes);
    assertTrue(
        loaded.contains("dev.aerun.rpc.LegacyRpcServer source: file:")
            && loaded.contains("/lib/legacy/rpc-legacy-"),
        "rpc-legacy from lib/legacy");
    assertTrue(
        loaded
            .lines()
            .filter(l -> l.contains(" io.grpc.") && l.contains(" source: file:"))
            .allMatch(l -> l.contains("/lib/legacy/grpc-")),
        "gRPC from lib/legacy");
  }

  @Test
  void legacyMode_startedWithDashCpWithoutItsJars_failsInOneLine() throws Exception {
    String output = startWithDashCpAndFail("--mode", "legacy");
    assertTrue(
        output.contains("\nerror: legacy RPC mode's classes are not on the class path"), output);
  }

  /** The split's halves read their address with legacy mode's classes, while parsing options. */
  @Test
  void rpcListen_startedWithDashCpWithoutItsJars_failsAsAStartNotAsUsage() throws Exception {
    String output = startWithDashCpAndFail("--role", "runtime", "--rpc-listen", "tcp:127.0.0.1:0");
    assertTrue(
        output.contains(
            "\nerror: --rpc-listen: legacy RPC mode's classes are not on the class path"),
        output);
    assertFalse(output.contains("--help"), output); // not a usage error
  }

  /**
   * Starts the runtime with {@code -cp} on its jar alone and {@code options}; asserts it fails with
   * exit 1 and one {@code error:} line naming lib/legacy, and serves nothing.
   */
  private static String startWithDashCpAndFail(String... options) throws Exception {
    List<String> command =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                RuntimeProcess.runtimeJar().toString(),
                "dev.aerun.main.Main",
                "--port",
                "0",
                "--address",
                "127.0.0.1"));
    command.addAll(List.of(options));
    command.add(RuntimeProcess.app("sample-ee10-app.war").toString());
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(2, TimeUnit.MINUTES), output);

    assertEquals(1, p.exitValue(), output);
    List<String> errors = output.lines().filter(l -> l.startsWith("error:")).toList();
    assertEquals(1, errors.size(), output);
    assertTrue(errors.get(0).contains("lib/legacy"), output);
    assertFalse(output.contains("\tat "), output); // no stack trace
    assertFalse(output.contains("Serving "), output); // nothing served
    return "\n" + output;
  }

  private static boolean isLegacyJar(String path) {
    String name = Path.of(path).getFileName().toString();
    return LEGACY_JARS.stream().anyMatch(name::startsWith);
  }

  /** The jars process {@code pid} has open, from {@code /proc/PID/fd}. */
  private static List<String> openJars(long pid) throws IOException {
    List<String> jars = new ArrayList<>();
    try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
      for (Path fd : fds.toList()) {
        try {
          String target = Files.readSymbolicLink(fd).toString();
          if (target.endsWith(".jar")) {
            jars.add(target);
          }
        } catch (IOException e) {
          // Closed while listed.
        }
      }
    }
    return jars;
  }
}
