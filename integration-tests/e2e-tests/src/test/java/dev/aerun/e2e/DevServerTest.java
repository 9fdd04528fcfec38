package dev.aerun.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.testing.AppCopies;
import dev.aerun.testing.RuntimeProcess;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The development server ({@code --development --watch}) on an exploded copy of the EE10 sample: a
 * recompiled class redeploys in the same JVM with no request failing, a bad change serves a dev
 * error page until the next good one, a change that needs a new JVM exits for a restart, and the
 * status page and trust defaults apply only in development.
 */
class DevServerTest {
  private static final String HELLO_CLASS = "WEB-INF/classes/dev/aerun/sample/HelloServlet.class";

  @TempDir Path temp;

  /** A page whose failure no {@code <error-page>} of the sample maps. */
  private static final String BOOM_JSP =
      "<% if (true) { throw new IllegalStateException(\"dev-only detail\"); } %>";

  private Path app() throws IOException {
    Path app =
        AppCopies.withDescriptorEdit(
            RuntimeProcess.app("sample-ee10-app.war"),
            temp.resolve("app"),
            "<runtime>",
            "<runtime>");
    Files.writeString(app.resolve("boom.jsp"), BOOM_JSP);
    return app;
  }

  private static RuntimeProcess dev(Path app) throws IOException {
    return RuntimeProcess.launch(app)
        .args("--development", "--watch")
        .env("SAMPLE_ENV", "from-appengine-web-xml")
        .start();
  }

  @Test
  void recompiledClass_redeploysInTheSameJvm_andNoRequestFails() throws Exception {
    Path app = app();
    try (RuntimeProcess runtime = dev(app)) {
      assertRedeploysWithNoFailedRequest(
          runtime, () -> Files.write(app.resolve(HELLO_CLASS), compileHello("Hello again", temp)));
      assertTrue(runtime.output().contains("watching 4 path(s) for changes"), runtime.output());
      assertFurtherReloadsKeepNoMountedJars(runtime, app);
    }
  }

  /**
   * Reloads a few more times and counts the jar file systems the process keeps, which must not grow
   * with the reloads. Jetty caches what the container jars hold (tag libraries, fragments) in the
   * server, keyed by the jar resources each webapp mounts afresh: left on, every reload kept one
   * more mounted jar that no later webapp finds. Counted from outside, as an operator would ({@code
   * jcmd}).
   */
  private void assertFurtherReloadsKeepNoMountedJars(RuntimeProcess runtime, Path app)
      throws Exception {
    String mountedJar = "jdk.nio.zipfs.ZipFileSystem";
    byte[][] variants = {
      compileHello("Hello 2", temp.resolve("v2")), compileHello("Hello 3", temp.resolve("v3"))
    };
    // Counted from the second reload on, when the process holds as many old webapps as it will.
    long before = -1;
    int reloads = 4;
    for (int i = 0; i <= reloads; i++) {
      Files.write(app.resolve(HELLO_CLASS), variants[i % 2]);
      runtime.awaitOutput(Pattern.compile("(?s)(Reloaded app in .*){" + (2 + i) + "}"));
      if (i == 0) {
        before = liveInstances(runtime, mountedJar);
      }
    }
    assertEquals("Hello 2", Http.get(runtime.uri("/hello")).body());
    long after = liveInstances(runtime, mountedJar);
    assertTrue(before > 0, "the app's jars are mounted: the count sees them");
    assertTrue(
        after <= before,
        "mounted jar file systems alive after 2 reloads: "
            + before
            + ", after "
            + (2 + reloads)
            + ": "
            + after);
  }

  /**
   * Live instances of {@code className} in {@code runtime} ({@code jcmd GC.class_histogram}, which
   * collects first). Read twice, the second time counts: a first collection leaves what waits for
   * finalization, an old webapp's resources among them.
   */
  private static long liveInstances(RuntimeProcess runtime, String className) throws Exception {
    runtime.jcmd("GC.run");
    runtime.jcmd("GC.run_finalization");
    // Rows read "  num:  instances  bytes  class name"; a class with no instance has no row.
    return runtime
        .jcmd("GC.class_histogram")
        .lines()
        .map(String::trim)
        .map(line -> line.split("\\s+"))
        .filter(row -> row.length >= 4 && row[3].equals(className))
        .mapToLong(row -> Long.parseLong(row[1]))
        .sum();
  }

  @Test
  void legacyMode_recompiledClass_redeploysInTheSameJvm_andNoRequestFails() throws Exception {
    Path app = app();
    try (RuntimeProcess runtime =
        RuntimeProcess.launch(app)
            .args("--development", "--watch", "--mode", "legacy")
            .env("SAMPLE_ENV", "from-appengine-web-xml")
            .start()) {
      runtime.port(); // started
      assertTrue(runtime.output().contains("in legacy"), runtime.output());
      assertRedeploysWithNoFailedRequest(
          runtime, () -> Files.write(app.resolve(HELLO_CLASS), compileHello("Hello again", temp)));
    }
  }

  @Test
  void war_aNewWarWrittenInPlace_redeploysInTheSameJvm_andNoRequestFails() throws Exception {
    Path war = temp.resolve("sample.war");
    Files.copy(RuntimeProcess.app("sample-ee10-app.war"), war);
    byte[] newClass = compileHello("Hello again", temp);
    try (RuntimeProcess runtime =
        RuntimeProcess.launch(war)
            .args("--development", "--watch")
            .env("SAMPLE_ENV", "from-appengine-web-xml")
            .start()) {
      runtime.port(); // started
      assertTrue(runtime.output().contains("watching 1 path(s)"), runtime.output());
      // Rewritten in place, as `mvn package` does: the quiet period keeps a half-written war
      // from being deployed.
      assertRedeploysWithNoFailedRequest(runtime, () -> rewriteWar(war, HELLO_CLASS, newClass));
    }
  }

  /** The war with one entry's content replaced, written over the same file, slowly. */
  private static void rewriteWar(Path war, String entry, byte[] content) throws IOException {
    Map<String, byte[]> entries = new java.util.LinkedHashMap<>();
    try (ZipFile zip = new ZipFile(war.toFile())) {
      for (ZipEntry e : java.util.Collections.list(zip.entries())) {
        try (var in = zip.getInputStream(e)) {
          entries.put(e.getName(), in.readAllBytes());
        }
      }
    }
    assertTrue(entries.containsKey(entry), entry);
    entries.put(entry, content);
    try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(war))) {
      int written = 0;
      for (var e : entries.entrySet()) {
        out.putNextEntry(new ZipEntry(e.getKey()));
        out.write(e.getValue());
        out.closeEntry();
        if (++written % 20 == 0) {
          out.flush();
          sleep(20); // a packaging step takes a while
        }
      }
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  interface Change {
    void apply() throws Exception;
  }

  /**
   * Applies {@code change} while a client polls {@code /hello}; the new code answers, the reload is
   * logged, the process is the same, and every request answered 200.
   */
  private static void assertRedeploysWithNoFailedRequest(RuntimeProcess runtime, Change change)
      throws Exception {
    assertEquals("Hello from EE10", Http.get(runtime.uri("/hello")).body());
    long pid = runtime.pid();
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
    change.apply();
    String body = "";
    for (int i = 0; i < 600 && !body.equals("Hello again"); i++) {
      Thread.sleep(100);
      body = Http.get(runtime.uri("/hello")).body();
    }
    runtime.awaitOutput(Pattern.compile("Reloaded \\S+ in \\d+ ms after \\d+ changed file"));
    Thread.sleep(300);
    polling.set(false);
    client.join();

    assertEquals("Hello again", body, runtime.output());
    assertEquals(Map.of(200, statuses.get(200)), statuses, "every request answered 200");
    assertEquals(pid, runtime.pid());
  }

  @Test
  void badDescriptor_servesTheDevErrorPage_thenTheNextGoodChangeRecovers() throws Exception {
    Path app = app();
    Path descriptor = app.resolve("WEB-INF/appengine-web.xml");
    String good = Files.readString(descriptor);
    try (RuntimeProcess runtime = dev(app)) {
      assertEquals(200, Http.get(runtime.uri("/hello")).statusCode());

      Files.writeString(descriptor, good.replace("<runtime>", "<no-such-element/><runtime>"));
      runtime.awaitOutput(Pattern.compile("Reload of app failed"));
      HttpResponse<String> broken = Http.get(runtime.uri("/hello"));
      assertEquals(500, broken.statusCode());
      assertTrue(
          broken.body().contains("appengine-web.xml:") && broken.body().contains("no-such-element"),
          broken.body());

      Files.writeString(descriptor, good);
      runtime.awaitOutput(Pattern.compile("Reloaded app in"));
      assertEquals("Hello from EE10", Http.get(runtime.uri("/hello")).body());
    }
  }

  @Test
  void changedSystemProperties_stopForARestartWithExitCode3() throws Exception {
    Path app = app();
    Path descriptor = app.resolve("WEB-INF/appengine-web.xml");
    try (RuntimeProcess runtime = dev(app)) {
      runtime.port();
      String xml = Files.readString(descriptor);
      assertTrue(xml.contains("value=\"hello\""), xml);
      Files.writeString(descriptor, xml.replace("value=\"hello\"", "value=\"changed\""));
      assertEquals(3, runtime.waitFor(60), runtime.output());
      assertTrue(
          runtime.output().contains("<system-properties> changed, which cannot apply in this JVM"),
          runtime.output());
    }
  }

  @Test
  void statusPage_showsTheResolvedAppToLoopback_withEnvVariableNamesOnly() throws Exception {
    try (RuntimeProcess runtime = dev(app())) {
      HttpResponse<String> page = Http.get(runtime.uri("/_ah/dev"));
      assertEquals(200, page.statusCode());
      String text = page.body();
      assertTrue(text.contains("Mode: HttpConnector"), text);
      assertTrue(text.contains("EE: EE10"), text);
      assertTrue(text.contains("Jetty: 12."), text);
      assertTrue(text.contains("env variables (names): SAMPLE_ENV"), text);
      assertFalse(text.contains("from-appengine-web-xml"), "never an env variable's value");
      assertTrue(text.contains("com.google.appengine.runtime.environment=Development"), text);
      assertTrue(text.contains("WEB-INF/classes"), text);

      // The console's service pages need a local API host, which an app without
      // <app-engine-apis> does not have; its cron page still shows (no cron.xml here).
      HttpResponse<String> datastore = Http.get(runtime.uri("/_ah/dev/datastore"));
      assertEquals(404, datastore.statusCode());
      assertTrue(datastore.body().contains("No local API host"), datastore.body());
      HttpResponse<String> cron = Http.get(runtime.uri("/_ah/dev/cron"));
      assertEquals(200, cron.statusCode());
      assertTrue(cron.body().contains("The app has no WEB-INF/cron.xml."), cron.body());

      // Error pages show the exception and its stack trace to loopback clients in development.
      HttpResponse<String> boom = Http.get(runtime.uri("/boom.jsp"));
      assertEquals(500, boom.statusCode());
      assertTrue(boom.body().contains("dev-only detail"), boom.body());
      assertTrue(boom.body().contains("IllegalStateException"), boom.body());

      // Loopback is trusted in development: a cron request from curl reaches the app as one.
      var info = Http.requestInfo(runtime.uri("/request-info"), "X-AppEngine-Cron", "true");
      assertEquals(
          "true", info.path("attributes").path("com.google.appengine.request.cron").asText());
    }
  }

  @Test
  void production_hasNoStatusPage_andTrustsNoLoopbackHeaders() throws Exception {
    try (RuntimeProcess runtime =
        RuntimeProcess.launch(app()).env("SAMPLE_ENV", "from-appengine-web-xml").start()) {
      assertEquals(404, Http.get(runtime.uri("/_ah/dev")).statusCode());
      // Nor a console: its paths are the app's.
      for (String path : List.of("/_ah/dev/cron", "/_ah/dev/datastore", "/_ah/dev/memcache")) {
        HttpResponse<String> page = Http.get(runtime.uri(path));
        assertEquals(404, page.statusCode(), path);
        assertFalse(page.body().contains("development server"), page.body());
      }
      HttpResponse<String> boom = Http.get(runtime.uri("/boom.jsp"));
      assertEquals(500, boom.statusCode());
      assertFalse(boom.body().contains("dev-only detail"), boom.body());
      assertFalse(boom.body().contains("IllegalStateException"), boom.body());
      var info = Http.requestInfo(runtime.uri("/request-info"), "X-AppEngine-Cron", "true");
      assertTrue(info.path("attributes").path("com.google.appengine.request.cron").isMissingNode());
    }
  }

  /** HelloServlet answering {@code text}, compiled against the runtime's servlet API. */
  static byte[] compileHello(String text, Path work) throws IOException {
    return AppCopies.helloServlet(text, RuntimeProcess.runtimeJar(), work);
  }
}
