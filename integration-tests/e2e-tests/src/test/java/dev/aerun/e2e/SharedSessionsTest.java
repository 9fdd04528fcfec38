package dev.aerun.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
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
  private String url;

  @BeforeAll
  void startPostgres() throws Exception {
    dataDir = Files.createTempDirectory("aerun-pg-");
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
        url = "jdbc:postgresql://127.0.0.1:" + port + "/postgres?user=postgres";
        return;
      }
      failure = output;
    }
    throw new IllegalStateException("PostgreSQL did not start:\n" + failure);
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

  private RuntimeProcess start(Path app) throws Exception {
    RuntimeProcess runtime =
        runtimes.start(RuntimeProcess.launch(app).args("--sessions-jdbc-url", url));
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

  @Test
  void writeBehind_reachesTheOtherInstance() throws Exception {
    Path war =
        AppCopies.withDescriptorEdit(
            RuntimeProcess.app("sample-sessions-ee10.war"),
            Files.createTempDirectory("aerun-write-behind-"),
            "<sessions-enabled>true</sessions-enabled>",
            "<sessions-enabled>true</sessions-enabled>"
                + "<async-session-persistence enabled=\"true\"/>");
    RuntimeProcess a = start(war);
    RuntimeProcess b = start(war);
    RawResponse first = RawResponse.get(a.port(), "/counter");
    assertEquals("visits=1 EE10", first.body().trim(), first.body());
    String session = cookie(first);
    // Written after the response, in the background: B sees it once the write is done.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    String seen = "";
    while (System.nanoTime() < deadline) {
      RawResponse peek = RawResponse.get(b.port(), "/counter/peek", "Cookie: " + session);
      seen = peek.body().trim();
      if (seen.equals("session=present")) {
        break;
      }
      Thread.sleep(200);
    }
    assertEquals("session=present", seen);
    assertEquals("visits=2 EE10", visit(b, session));
    List.of(a, b).forEach(RuntimeProcess::close);
  }
}
