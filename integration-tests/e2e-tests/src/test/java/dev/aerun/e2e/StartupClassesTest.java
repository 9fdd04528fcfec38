package dev.aerun.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.testing.RuntimeProcess;
import dev.aerun.testing.Runtimes;
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
 * The classes a start needs from the runtime's own class path and from the EE's folder are listed
 * by the build ({@code lib/startup-classes.txt}, from training starts) and loaded on a second
 * thread while the main thread starts the runtime.
 */
class StartupClassesTest {
  @RegisterExtension static final Runtimes runtimes = new Runtimes();

  /** {@code [TID][class,load] NAME source: ...} */
  private static final Pattern LOADED = Pattern.compile("^\\[(\\d+)]\\S* (\\S+) source: ");

  private static List<String> list() throws Exception {
    Path list = RuntimeProcess.runtimeJar().resolveSibling("lib").resolve("startup-classes.txt");
    return Files.readAllLines(list);
  }

  /** The list's classes of the runtime's own class path: lines without a folder. */
  private static List<String> ownClassPath() throws Exception {
    return list().stream().filter(l -> !l.contains(" ")).toList();
  }

  /** The list's classes of {@code lib/<folder>}: lines {@code FOLDER NAME}. */
  private static List<String> ofFolder(String folder) throws Exception {
    return list().stream()
        .filter(l -> l.startsWith(folder + " "))
        .map(l -> l.substring(folder.length() + 1))
        .toList();
  }

  @Test
  void theBuiltList_holdsTheRuntimesAndJettysClasses_eachFromItsClassLoader() throws Exception {
    List<String> own = ownClassPath();

    assertTrue(own.size() > 300, "only " + own.size() + " classes");
    assertTrue(own.contains("org.eclipse.jetty.server.Server"), "Jetty's server");
    assertTrue(own.contains("dev.aerun.httpconnector.HttpConnectorServer"), "the connector");
    assertTrue(own.contains("dev.aerun.main.RuntimeStarter"), "the launcher's start");
    // Not the EE loaders' (lib/eeN), not legacy mode's (lib/legacy), not the training's own.
    assertEquals(
        List.of(),
        own.stream()
            .filter(
                n ->
                    n.startsWith("org.eclipse.jetty.ee")
                        || n.startsWith("io.grpc.")
                        || n.startsWith("dev.aerun.rpc.")
                        || n.startsWith("dev.aerun.main.Training"))
            .toList());
    assertEquals(own.size(), new HashSet<>(own).size(), "each class once");
    // Each EE's folder: its own Jetty webapp classes, no other EE's.
    for (String ee : List.of("ee8", "ee10", "ee11")) {
      List<String> classes = ofFolder(ee);
      assertTrue(classes.contains("org.eclipse.jetty." + ee + ".webapp.WebAppContext"), ee);
      assertEquals(
          List.of(),
          classes.stream()
              .filter(
                  n ->
                      n.matches("org\\.eclipse\\.jetty\\.ee[0-9]+\\..*")
                          && !n.startsWith("org.eclipse.jetty." + ee + "."))
              .toList(),
          ee);
    }
    assertEquals(
        List.of(),
        list().stream().filter(l -> l.contains(" ") && !l.matches("ee(8|10|11) \\S+")).toList());
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
    Set<String> listed = new HashSet<>(ownClassPath());
    listed.addAll(ofFolder("ee10")); // the sample app's EE
    Map<String, Integer> byThread = new HashMap<>();
    loadedBy.forEach(
        (name, thread) -> {
          if (listed.contains(name)) {
            byThread.merge(thread, 1, Integer::sum);
          }
        });
    // The preload thread runs from the launcher's first line: it loads most listed classes before
    // the main thread gets to them (927 of 964 on a quiet machine). Without it, the thread that
    // serves the first request is the one beside the main thread with the most (160 of 686 of the
    // runtime's own class path).
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
