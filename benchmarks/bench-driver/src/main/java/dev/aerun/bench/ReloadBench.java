package dev.aerun.bench;

import dev.aerun.testing.AppCopies;
import dev.aerun.testing.RawResponse;
import dev.aerun.testing.RuntimeProcess;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code --reload N}: the development server's hot reload, measured (not a timed test). Serves the
 * EE10 sample exploded with {@code --development --watch}, replaces {@code HelloServlet.class} N
 * times, and reports, per reload, the time from writing the class file to the first response from
 * the new code; after every tenth reload, the heap after a full GC, the classes loaded and the live
 * webapp class loaders ({@code jcmd}), which stay flat when old webapps are collected.
 */
final class ReloadBench {
  private static final String HELLO = "WEB-INF/classes/dev/aerun/sample/HelloServlet.class";

  private ReloadBench() {}

  static void run(Path repo, int reloads, PrintStream out) throws Exception {
    Path work = Files.createTempDirectory("aerun-reload-bench-");
    Path app =
        AppCopies.explode(
            repo.resolve("integration-tests/sample-ee10-app/target/sample-ee10-app.war"),
            work.resolve("app"));
    Path runtimeJar = repo.resolve("runtime-main/target/runtime-main.jar");
    byte[][] variants = {
      AppCopies.helloServlet("Hello vA", runtimeJar, work.resolve("a")),
      AppCopies.helloServlet("Hello vB", runtimeJar, work.resolve("b"))
    };
    RuntimeProcess.Launch launch =
        RuntimeProcess.launch(app)
            .runtimeJar(runtimeJar)
            .args("--development", "--watch")
            .env("SAMPLE_ENV", "from-appengine-web-xml") // no relaunch: one JVM
            .log(work.resolve("runtime.log"));
    try (RuntimeProcess runtime = launch.start()) {
      int port = runtime.port();
      out.printf(
          "reload benchmark: EE10 sample, %d reloads, runtime pid %d%n", reloads, runtime.pid());
      out.println(memoryLine(runtime, 0));
      List<Long> millis = new ArrayList<>();
      int failures = 0;
      for (int i = 1; i <= reloads; i++) {
        String expected = i % 2 == 1 ? "Hello vA" : "Hello vB";
        long start = System.nanoTime();
        Files.write(app.resolve(HELLO), variants[i % 2 == 1 ? 0 : 1]);
        while (true) {
          RawResponse response = RawResponse.get(port, "/hello");
          if (response.status() != 200) {
            failures++;
          }
          if (response.body().equals(expected)) {
            break;
          }
          Thread.sleep(10);
          if (System.nanoTime() - start > TimeUnit.SECONDS.toNanos(120)) {
            throw new IllegalStateException("reload " + i + " never served the new code");
          }
        }
        long ms = (System.nanoTime() - start) / 1_000_000;
        millis.add(ms);
        out.printf("reload %3d: new code answered %d ms after the class file changed%n", i, ms);
        if (i % 10 == 0 || i == reloads) {
          out.println(memoryLine(runtime, i));
        }
      }
      List<Long> sorted = millis.stream().sorted().toList();
      out.printf(
          "change-to-new-code: median %d ms, p90 %d ms, max %d ms; non-200 answers: %d%n",
          sorted.get(sorted.size() / 2),
          sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(sorted.size() * 0.9) - 1)),
          sorted.get(sorted.size() - 1),
          failures);
    }
  }

  /**
   * After a full GC: heap used, classes loaded, live webapp class loaders. Collected twice, with
   * the finalizers run in between: a single collection leaves the last old webapp, which some of
   * its objects keep until their finalizers have run, and counts two loaders where one is live.
   */
  private static String memoryLine(RuntimeProcess runtime, int reloads) throws Exception {
    runtime.jcmd("GC.run");
    runtime.jcmd("GC.run_finalization");
    runtime.jcmd("GC.run");
    String heap = runtime.jcmd("GC.heap_info");
    Matcher used = Pattern.compile("used (\\d+)K").matcher(heap);
    long usedKiB = used.find() ? Long.parseLong(used.group(1)) : -1;
    String loaders = runtime.jcmd("VM.classloader_stats");
    long webappLoaders = loaders.lines().filter(l -> l.contains("WebAppClassLoader")).count();
    String classes = runtime.jcmd("PerfCounter.print");
    Matcher loaded = Pattern.compile("java.cls.loadedClasses=(\\d+)").matcher(classes);
    Matcher unloaded = Pattern.compile("java.cls.unloadedClasses=(\\d+)").matcher(classes);
    return String.format(
        "after %3d reloads + full GC: heap used %d MiB, classes loaded-unloaded %s, webapp class loaders alive %d",
        reloads,
        usedKiB / 1024,
        loaded.find() && unloaded.find()
            ? String.valueOf(Long.parseLong(loaded.group(1)) - Long.parseLong(unloaded.group(1)))
            : "?",
        webappLoaders);
  }
}
