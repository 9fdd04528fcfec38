package dev.aerun.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The classes a start needs from the runtime's own class path are listed by the build ({@code
 * lib/startup-classes.txt}, from a training start) and loaded on a second thread while the main
 * thread starts the runtime.
 */
class StartupClassesTest {
  @RegisterExtension static final Runtimes runtimes = new Runtimes();

  /** {@code [TID][class,load] NAME source: ...} */
  private static final Pattern LOADED = Pattern.compile("^\\[(\\d+)]\\S* (\\S+) source: ");

  private static List<String> list() throws Exception {
    Path list = RuntimeProcess.runtimeJar().resolveSibling("lib").resolve("startup-classes.txt");
    return Files.readAllLines(list);
  }

  @Test
  void theBuiltList_holdsTheRuntimesAndJettysClasses_onlyFromItsOwnClassPath() throws Exception {
    List<String> names = list();

    assertTrue(names.size() > 300, "only " + names.size() + " classes");
    assertTrue(names.contains("org.eclipse.jetty.server.Server"), "Jetty's server");
    assertTrue(names.contains("dev.aerun.httpconnector.HttpConnectorServer"), "the connector");
    assertTrue(names.contains("dev.aerun.main.RuntimeStarter"), "the launcher's start");
    // Not the EE loaders' (lib/eeN), not legacy mode's (lib/legacy), not the training's own.
    assertEquals(
        List.of(),
        names.stream()
            .filter(
                n ->
                    n.startsWith("org.eclipse.jetty.ee")
                        || n.startsWith("io.grpc.")
                        || n.startsWith("dev.aerun.rpc.")
                        || n.startsWith("dev.aerun.main.Training")
                        || n.startsWith("java."))
            .toList());
    assertEquals(names.size(), new HashSet<>(names).size(), "each class once");
  }

  @Test
  void aStart_loadsMostListedClassesOnAThreadBesideTheMainThread(@TempDir Path dir)
      throws Exception {
    Path log = dir.resolve("classes.txt");
    RuntimeProcess runtime =
        runtimes.start(
            RuntimeProcess.launch(RuntimeProcess.app("sample-ee10-app.war"))
                .jvmOption("-Xlog:class+load=info:file=" + log + ":tid,tags")
                .args("--log-format", "text", "--mode", "http"));
    assertEquals(200, Http.get(runtime.uri("/hello")).statusCode());

    Map<String, String> loadedBy = new HashMap<>(); // class name -> thread id
    for (String line : Files.readAllLines(log)) {
      Matcher m = LOADED.matcher(line);
      if (m.find()) {
        loadedBy.putIfAbsent(m.group(2), m.group(1));
      }
    }
    String main = loadedBy.get("dev.aerun.main.Launcher");
    assertTrue(main != null, "the launcher's class in the log");
    Set<String> listed = new HashSet<>(list());
    Map<String, Integer> byThread = new HashMap<>();
    loadedBy.forEach(
        (name, thread) -> {
          if (listed.contains(name)) {
            byThread.merge(thread, 1, Integer::sum);
          }
        });
    // The preload thread runs from the launcher's first line: it loads most listed classes before
    // the main thread gets to them (682 of 686 on a quiet machine). Without it, the thread that
    // serves the first request is the one beside the main thread with the most (160 of 686).
    int besideMain =
        byThread.entrySet().stream()
            .filter(e -> !e.getKey().equals(main))
            .mapToInt(Map.Entry::getValue)
            .max()
            .orElse(0);
    assertTrue(
        besideMain >= listed.size() / 2,
        "listed classes by thread: " + byThread + " (main thread " + main + ")");
  }
}
