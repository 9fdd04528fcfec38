package dev.aerun.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.testing.RuntimeProcess;
import java.io.IOException;
import java.io.OutputStream;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
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
 * The same for the app's code in a jar of {@code WEB-INF/lib} replaced by a delete and a copy.
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

  /** A jar of everything under {@code classes}, written to {@code jar}. */
  private static void jar(Path classes, Path jar) throws IOException {
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
        Stream<Path> files = Files.walk(classes)) {
      for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
        out.putNextEntry(new JarEntry(classes.relativize(file).toString().replace('\\', '/')));
        out.write(Files.readAllBytes(file));
        out.closeEntry();
      }
    }
  }

  /** A client that GETs {@code /hello} again and again until closed, counting the statuses. */
  private static final class Poller implements AutoCloseable {
    final Map<Integer, Integer> statuses = new ConcurrentHashMap<>();
    private final AtomicBoolean polling = new AtomicBoolean(true);
    private final Thread client;

    Poller(RuntimeProcess runtime) {
      client =
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
    }

    @Override
    public void close() throws InterruptedException {
      polling.set(false);
      client.join();
    }
  }

  /**
   * Waits for {@code /hello} to answer a body starting with {@code prefix}, then a moment more for
   * the poller; returns the last body and prints how long it took since {@code sinceNanos}.
   */
  private static String awaitNewCode(
      RuntimeProcess runtime, String prefix, long sinceNanos, String what) throws Exception {
    String body = "";
    long answeredAfter = -1;
    for (int i = 0; i < 600; i++) {
      HttpResponse<String> response = Http.get(runtime.uri("/hello"));
      body = response.body();
      if (body.startsWith(prefix)) {
        answeredAfter = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sinceNanos);
        break;
      }
      Thread.sleep(50);
    }
    Thread.sleep(300);
    // The target is 2 s (measured here: see the report); the bound only catches a reload that
    // never came on its own.
    System.out.println("new code answered " + answeredAfter + " ms after " + what + " ended");
    assertTrue(answeredAfter >= 0 && answeredAfter < 20_000, "after " + answeredAfter + " ms");
    return body;
  }

  /** Every request the poller sent got 200, and the runtime reloaded exactly once. */
  private static void assertOneCleanReload(RuntimeProcess runtime, Poller poller, String what) {
    assertEquals(
        Map.of(200, poller.statuses.get(200)),
        poller.statuses,
        "every request answered 200 while " + what + "\n" + runtime.output());
    List<String> reloads = runtime.output().lines().filter(l -> l.contains("Reloaded")).toList();
    assertEquals(1, reloads.size(), "one reload, of the finished " + what + ": " + reloads);
  }

  /**
   * The exploded app holds its code as a jar in {@code WEB-INF/lib}, and that jar is replaced the
   * way a build or a copy tool often does it: deleted, then written again (here in two halves, a
   * moment apart). No request fails or gets a 404 meanwhile, and the new jar's code answers after
   * the one reload.
   */
  @Test
  void aJarReplacedInWebInfLib_byDeleteThenCopy_neverFailsARequest() throws Exception {
    Path project = project();
    mvnCompile(project);
    Path app = temp.resolve("app");
    copyTree(project.resolve("src/main/webapp"), app);
    Path deployed = Files.createDirectories(app.resolve("WEB-INF/lib")).resolve("hello.jar");
    jar(project.resolve("target/classes"), deployed);
    Path servlet = project.resolve("src/main/java/it/HelloServlet.java");
    try (RuntimeProcess runtime =
        RuntimeProcess.launch(app).args("--development", "--watch").start()) {
      assertEquals("Hello EE10 from aerun in Development", Http.get(runtime.uri("/hello")).body());
      Files.writeString(
          servlet, Files.readString(servlet).replace("Hello EE10 from", "Replaced EE10 from"));
      mvnCompile(project);
      Path next = temp.resolve("hello-next.jar");
      jar(project.resolve("target/classes"), next);
      byte[] bytes = Files.readAllBytes(next);
      try (Poller poller = new Poller(runtime)) {
        Thread.sleep(300);
        Files.delete(deployed);
        Thread.sleep(500); // the copy starts a moment after the delete
        try (OutputStream out = Files.newOutputStream(deployed)) {
          out.write(bytes, 0, bytes.length / 2);
          out.flush();
          Thread.sleep(150);
          out.write(bytes, bytes.length / 2, bytes.length - bytes.length / 2);
        }
        String body = awaitNewCode(runtime, "Replaced", System.nanoTime(), "the jar's copy");
        poller.close();

        assertEquals("Replaced EE10 from aerun in Development", body, runtime.output());
        assertOneCleanReload(runtime, poller, "jar replacement");
      }
    }
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
      try (Poller poller = new Poller(runtime)) {
        Files.writeString(
            servlet, Files.readString(servlet).replace("Hello EE10 from", "Recompiled EE10 from"));
        mvnCompile(project);
        String body = awaitNewCode(runtime, "Recompiled", System.nanoTime(), "mvn compile");
        poller.close();

        assertEquals("Recompiled EE10 from aerun in Development", body, runtime.output());
        assertOneCleanReload(runtime, poller, "compile");
      }
    }
  }
}
