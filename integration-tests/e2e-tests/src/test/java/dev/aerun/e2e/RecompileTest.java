package dev.aerun.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.testing.RuntimeProcess;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The development server while a real {@code mvn compile} recompiles a real project: the plugin's
 * {@code run-ee10} invoker project, served the way {@code aerun:run} serves it ({@code
 * --development --watch}, its {@code src/main/webapp} with {@code target/classes} on the class
 * path). maven-compiler-plugin 3.13.0 deletes the module's class files before it recompiles the
 * module, then writes nothing while javac runs: the half-finished output must never be deployed (a
 * 404 for {@code /hello}, whose class is gone), and the new code answers soon after the compile.
 */
class RecompileTest {
  @TempDir Path temp;

  /**
   * The invoker project, as a plain Maven project: its plugin under test left out, and the sample
   * servlet the plugin's EE10 projects share ({@code src/it/common}) copied in as its own source.
   */
  private Path project() throws IOException {
    Path its = Path.of("../../aerun-maven-plugin/src/it").toAbsolutePath().normalize();
    Path project = temp.resolve("run-ee10");
    copyTree(its.resolve("run-ee10"), project);
    copyTree(its.resolve("common/java"), project.resolve("src/main/java"));
    Path pom = project.resolve("pom.xml");
    String text = Files.readString(pom);
    Files.writeString(
        pom,
        text.replaceAll("(?s)<plugin>\\s*<groupId>@project\\.groupId@.*?</plugin>", "")
            .replaceAll("<sourceDirectory>[^<]*</sourceDirectory>", ""));
    return project;
  }

  private static void copyTree(Path source, Path destination) throws IOException {
    try (Stream<Path> files = Files.walk(source)) {
      for (Path file : files.toList()) {
        Path target = destination.resolve(source.relativize(file).toString());
        if (Files.isDirectory(file)) {
          Files.createDirectories(target);
        } else {
          Files.copy(file, target);
        }
      }
    }
  }

  /** A real {@code mvn compile} of {@code project}, offline; returns when it ended. */
  private static void mvnCompile(Path project) throws Exception {
    Process mvn =
        new ProcessBuilder("mvn", "-B", "-o", "-q", "compile")
            .directory(project.toFile())
            .redirectErrorStream(true)
            .redirectOutput(project.resolve("mvn.log").toFile())
            .start();
    assertTrue(mvn.waitFor(300, TimeUnit.SECONDS), "mvn compile did not end");
    assertEquals(0, mvn.exitValue(), Files.readString(project.resolve("mvn.log")));
  }

  @Test
  void aRealMvnCompile_neverServesTheHalfCompiledApp() throws Exception {
    Path project = project();
    mvnCompile(project);
    Path servlet = project.resolve("src/main/java/it/HelloServlet.java");
    try (RuntimeProcess runtime =
        RuntimeProcess.launch(project.resolve("src/main/webapp"))
            .args(
                "--development",
                "--watch",
                "--classpath",
                project.resolve("target/classes").toString())
            .start()) {
      assertEquals("Hello EE10 from aerun in Development", Http.get(runtime.uri("/hello")).body());
      Map<Integer, Integer> statuses = new ConcurrentHashMap<>();
      AtomicBoolean polling = new AtomicBoolean(true);
      Thread client =
          new Thread(
              () -> {
                while (polling.get()) {
                  try {
                    statuses.merge(Http.get(runtime.uri("/hello")).statusCode(), 1, Integer::sum);
                  } catch (Exception e) {
                    statuses.merge(-1, 1, Integer::sum); // refused, reset or timed out
                  }
                }
              });
      client.start();
      try {
        Files.writeString(
            servlet, Files.readString(servlet).replace("Hello EE10 from", "Recompiled EE10 from"));
        mvnCompile(project);
        long compiled = System.nanoTime();
        String body = "";
        long answeredAfter = -1;
        for (int i = 0; i < 600; i++) {
          HttpResponse<String> response = Http.get(runtime.uri("/hello"));
          body = response.body();
          if (body.startsWith("Recompiled")) {
            answeredAfter = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - compiled);
            break;
          }
          Thread.sleep(50);
        }
        Thread.sleep(300);
        polling.set(false);
        client.join();

        assertEquals("Recompiled EE10 from aerun in Development", body, runtime.output());
        assertEquals(
            Map.of(200, statuses.get(200)),
            statuses,
            "every request answered 200 while mvn compile ran\n" + runtime.output());
        // The target is 2 s after the compile ended (measured here: see the report); the bound
        // only catches a reload that never came on its own.
        System.out.println("new code answered " + answeredAfter + " ms after mvn compile ended");
        assertTrue(answeredAfter >= 0 && answeredAfter < 20_000, "after " + answeredAfter + " ms");
        List<String> reloads =
            runtime.output().lines().filter(l -> l.contains("Reloaded")).toList();
        assertEquals(1, reloads.size(), "one reload, of the finished compile: " + reloads);
      } finally {
        polling.set(false);
        client.join();
      }
    }
  }
}
