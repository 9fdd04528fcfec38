package dev.aerun.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The start-up warm-up initialises Jetty's slow classes on its own thread, and the main thread uses
 * Jetty only once it is done: two threads initialising classes that refer to each other could wait
 * for each other forever. Read from the JVM's own log of class initialisations, by thread id.
 */
class StartupWarmupTest {
  @RegisterExtension static final Runtimes runtimes = new Runtimes();

  private static final Pattern LINE = Pattern.compile("^\\[(\\d+)\\] \\d+ Initializing '([^']+)'");

  @Test
  void httpConnectorModeInitialisesJettyOffTheMainThreadFirst(@TempDir Path dir) throws Exception {
    checkWarmup(dir, "true");
  }

  @Test
  void legacyModeInitialisesJettyOffTheMainThreadFirst(@TempDir Path dir) throws Exception {
    checkWarmup(dir, "false");
  }

  private static void checkWarmup(Path dir, String httpConnector) throws Exception {
    Path log = dir.resolve("init.log");
    RuntimeProcess runtime =
        runtimes.start(
            RuntimeProcess.launch(RuntimeProcess.app("sample-ee10-app.war"))
                .property("appengine.use.HttpConnector", httpConnector)
                .jvmOption("-Xlog:class+init=info:file=" + log + ":tid"));
    assertEquals(200, Http.get(runtime.uri("/hello")).statusCode());
    List<String> lines = Files.readAllLines(log);

    String main = threadInitialising(lines, "dev/aerun/main/Main");
    String warmup = threadInitialising(lines, "org/eclipse/jetty/http/MimeTypes");
    assertNotEquals(main, warmup, "MimeTypes was initialised on the main thread");
    int warmupEnds = 0;
    int mainUsesJetty = -1;
    for (int i = 0; i < lines.size(); i++) {
      Matcher line = LINE.matcher(lines.get(i));
      if (!line.find()) {
        continue;
      }
      if (line.group(1).equals(warmup)) {
        warmupEnds = i;
      } else if (mainUsesJetty < 0
          && line.group(1).equals(main)
          && line.group(2).startsWith("org/eclipse/jetty/")) {
        mainUsesJetty = i;
      }
    }
    assertTrue(mainUsesJetty > 0, "the main thread never initialised a Jetty class");
    assertTrue(
        mainUsesJetty > warmupEnds,
        "the main thread initialised "
            + lines.get(mainUsesJetty)
            + " while the warm-up still ran (its last: "
            + lines.get(warmupEnds)
            + ")");
  }

  private static String threadInitialising(List<String> lines, String className) {
    for (String text : lines) {
      Matcher line = LINE.matcher(text);
      if (line.find() && line.group(2).equals(className)) {
        return line.group(1);
      }
    }
    return fail(className + " was never initialised");
  }
}
