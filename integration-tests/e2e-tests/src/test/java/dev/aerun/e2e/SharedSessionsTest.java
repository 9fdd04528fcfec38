package dev.aerun.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.aerun.testing.AppCopies;
import dev.aerun.testing.RawResponse;
import dev.aerun.testing.RuntimeProcess;
import dev.aerun.testing.Runtimes;
import dev.aerun.testing.TempDirs;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Sessions shared by two runtime processes through the JDBC session store on a real PostgreSQL
 * server, started for this test under an unprivileged user (bin/postgres.sh), as two instances
 * behind a load balancer would share them.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SharedSessionsTest {
  @RegisterExtension final Runtimes runtimes = new Runtimes();

  private static final Path SCRIPT = Path.of("bin", "postgres.sh").toAbsolutePath();
  private Path dataDir;
  private int port;
  private String url;

  /** Skipped only when asked: without PostgreSQL (or root to install it), the start fails. */
  private static final boolean JDK_ONLY = Boolean.getBoolean("aerun.jdkOnly");

  @BeforeEach
  void postgresIsWanted() {
    assumeFalse(JDK_ONLY, "-Pjdk-only: no PostgreSQL for the shared session store");
  }

  @BeforeAll
  void startPostgres() throws Exception {
    if (JDK_ONLY) {
      return;
    }
    dataDir = TempDirs.deletedAtExit("aerun-pg-");
    String failure = "";
    // A port the system has free now; another process may take it first, hence the retries.
    for (int attempt = 0; attempt < 5; attempt++) {
      int port = ThreadLocalRandom.current().nextInt(20000, 60000);
      Process p =
          new ProcessBuilder(SCRIPT.toString(), "start", dataDir.toString(), String.valueOf(port))
              .redirectErrorStream(true)
              .start();
      String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (p.waitFor(10, TimeUnit.MINUTES) && p.exitValue() == 0) {
        this.port = port;
        url = "jdbc:postgresql://127.0.0.1:" + port + "/postgres?user=postgres";
        return;
      }
      failure = output;
    }
    throw new IllegalStateException(
        "PostgreSQL did not start (without it, or root to install it, build with -Pjdk-only):\n"
            + failure);
  }

  @AfterAll
  void stopPostgres() throws Exception {
    if (url != null) {
      new ProcessBuilder(SCRIPT.toString(), "stop", dataDir.toString())
          .inheritIO()
          .start()
          .waitFor(2, TimeUnit.MINUTES);
    }
  }

  private RuntimeProcess start(Path app, String... args) throws Exception {
    RuntimeProcess runtime =
        runtimes.start(RuntimeProcess.launch(app).args("--sessions-jdbc-url", url).args(args));
    runtime.port();
    return runtime;
  }

  private static String cookie(RawResponse response) {
    for (String line : response.headers()) {
      if (line.toLowerCase().startsWith("set-cookie:") && line.contains("JSESSIONID=")) {
        String value = line.substring(line.indexOf("JSESSIONID="));
        int end = value.indexOf(';');
        return end < 0 ? value : value.substring(0, end);
      }
    }
    return null;
  }

  private static String visit(RuntimeProcess runtime, String cookie) throws Exception {
    RawResponse r = RawResponse.get(runtime.port(), "/counter", "Cookie: " + cookie);
    assertEquals(200, r.status(), r.body());
    return r.body().trim();
  }

  @Test
  void twoInstancesShareASession_andItOutlivesAKilledInstance() throws Exception {
    Path war = RuntimeProcess.app("sample-sessions-ee10.war");
    RuntimeProcess a = start(war);
    RuntimeProcess b = start(war);

    RawResponse first = RawResponse.get(a.port(), "/counter");
    assertEquals("visits=1 EE10", first.body().trim(), first.body());
    String session = cookie(first);
    assertNotNull(session, first.headers().toString());

    assertEquals("visits=2 EE10", visit(b, session), "B reads what A wrote");
    assertEquals("visits=3 EE10", visit(a, session), "A reads what B wrote");

    // Written before the response was sent: nothing is lost when A dies without a shutdown.
    ProcessHandle.of(a.pid()).orElseThrow().destroyForcibly();
    a.waitFor(60);
    assertEquals("visits=4 EE10", visit(b, session), "the session outlives A");
  }

  /**
   * A request that ends after its response was sent (here a second later) must not write its older
   * session back over what another instance wrote meanwhile. Its next request goes on the same
   * connection, so the instance reads it only once the late request has ended.
   */
  @Test
  void aRequestEndingLate_neverWritesItsOlderSessionBack() throws Exception {
    Path war = RuntimeProcess.app("sample-sessions-ee10.war");
    RuntimeProcess a = start(war);
    RuntimeProcess b = start(war);
    RawResponse first = RawResponse.get(a.port(), "/counter");
    String session = cookie(first);
    assertNotNull(session, first.headers().toString());

    try (Socket toB = new Socket("127.0.0.1", b.port())) {
      toB.setSoTimeout(120_000);
      assertEquals("visits=2 EE10", keepAliveGet(toB, "/counter/linger", session));
      assertEquals("visits=3 EE10", visit(a, session), "A reads what B wrote before answering");
      assertEquals(
          "visits=4 EE10",
          keepAliveGet(toB, "/counter", session),
          "B, after its late request ended, reads what A wrote");
    }
    List.of(a, b).forEach(RuntimeProcess::close);
  }

  /** GET on a kept-alive connection; returns the body (read by its Content-Length), trimmed. */
  private static String keepAliveGet(Socket socket, String target, String cookie)
      throws IOException {
    OutputStream out = socket.getOutputStream();
    out.write(
        ("GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: " + cookie + "\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII));
    out.flush();
    InputStream in = socket.getInputStream();
    StringBuilder head = new StringBuilder();
    while (!head.toString().endsWith("\r\n\r\n")) {
      int c = in.read();
      if (c < 0) {
        throw new IOException("connection closed after: " + head);
      }
      head.append((char) c);
    }
    assertTrue(head.toString().startsWith("HTTP/1.1 200"), head.toString());
    int length = -1;
    for (String line : head.toString().split("\r\n")) {
      if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
        length = Integer.parseInt(line.substring(line.indexOf(':') + 1).trim());
      }
    }
    assertTrue(length >= 0, "a Content-Length: " + head);
    return new String(in.readNBytes(length), StandardCharsets.UTF_8).trim();
  }

  /**
   * Instances that start at once on an empty database all serve: each finds no session table, one
   * creates it, and the others, whose create fails, find the table it made.
   */
  @Test
  void instancesStartingAtOnce_onAnEmptyDatabase_allServe() throws Exception {
    String database = "fresh" + ThreadLocalRandom.current().nextInt(1_000_000);
    Process created =
        new ProcessBuilder(
                SCRIPT.toString(), "createdb", dataDir.toString(), String.valueOf(port), database)
            .inheritIO()
            .start();
    assertTrue(created.waitFor(2, TimeUnit.MINUTES) && created.exitValue() == 0, "createdb");
    String fresh = url.replace("/postgres?", "/" + database + "?");
    Path war = RuntimeProcess.app("sample-sessions-ee10.war");
    List<RuntimeProcess> instances = new ArrayList<>();
    for (int i = 0; i < 3; i++) { // launched together: their starts reach the table at once
      instances.add(runtimes.start(RuntimeProcess.launch(war).args("--sessions-jdbc-url", fresh)));
    }
    RawResponse first = RawResponse.get(instances.get(0).port(), "/counter");
    assertEquals("visits=1 EE10", first.body().trim(), first.body());
    String session = cookie(first);
    assertEquals("visits=2 EE10", visit(instances.get(1), session));
    assertEquals("visits=3 EE10", visit(instances.get(2), session));
    instances.forEach(RuntimeProcess::close);
  }

  @Test
  void writeBehind_reachesTheOtherInstance() throws Exception {
    Path war =
        AppCopies.withDescriptorEdit(
            RuntimeProcess.app("sample-sessions-ee10.war"),
            TempDirs.deletedAtExit("aerun-write-behind-"),
            "<sessions-enabled>true</sessions-enabled>",
            "<sessions-enabled>true</sessions-enabled>"
                + "<async-session-persistence enabled=\"true\"/>");
    RuntimeProcess a = start(war);
    RuntimeProcess b = start(war);
    RawResponse first = RawResponse.get(a.port(), "/counter");
    assertEquals("visits=1 EE10", first.body().trim(), first.body());
    String session = cookie(first);
    // Written after the response, in the background: B sees it once the writes are done (the new
    // session's, then the request's: B may see the first alone for a moment).
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    String seen = "";
    while (System.nanoTime() < deadline) {
      RawResponse peek = RawResponse.get(b.port(), "/counter/peek", "Cookie: " + session);
      seen = peek.body().trim();
      if (seen.equals("session=present visits=1")) {
        break;
      }
      Thread.sleep(200);
    }
    assertEquals("session=present visits=1", seen);
    assertEquals("visits=2 EE10", visit(b, session));
    List.of(a, b).forEach(RuntimeProcess::close);
  }

  /**
   * A session in the shared store is found by its cookie only, by an instance in either mode: a
   * {@code ;jsessionid=} in a link selects nothing, and {@code encodeURL} writes none.
   */
  @Test
  void aSessionIdInTheUrl_selectsNoSharedSession_inEitherMode() throws Exception {
    Path war = RuntimeProcess.app("sample-sessions-ee10.war");
    RuntimeProcess http = start(war);
    RuntimeProcess legacy = start(war, "--mode", "legacy");
    RawResponse first = RawResponse.get(http.port(), "/counter");
    String session = cookie(first);
    assertNotNull(session, first.headers().toString());
    String id = session.substring("JSESSIONID=".length());
    for (RuntimeProcess runtime : List.of(http, legacy)) {
      RawResponse linked = RawResponse.get(runtime.port(), "/counter/peek;jsessionid=" + id);
      assertEquals("session=none", linked.body().trim(), "the id in the URL is ignored");
      RawResponse byCookie = RawResponse.get(runtime.port(), "/counter/peek", "Cookie: " + session);
      assertEquals("session=present visits=1", byCookie.body().trim(), "the cookie finds it");
      RawResponse link = RawResponse.get(runtime.port(), "/counter/link");
      assertEquals("url=/counter/peek redirect=/counter/peek", link.body().trim());
    }
    List.of(http, legacy).forEach(RuntimeProcess::close);
  }
}
