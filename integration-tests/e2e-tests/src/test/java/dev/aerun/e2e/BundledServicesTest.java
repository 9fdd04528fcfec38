package dev.aerun.e2e;

import static dev.aerun.e2e.BundledServices.call;
import static dev.aerun.e2e.BundledServices.seenBlocking;
import static dev.aerun.e2e.BundledServices.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.testing.RawResponse;
import dev.aerun.testing.RuntimeProcess;
import dev.aerun.testing.Runtimes;
import dev.aerun.testing.TempDirs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The full set of bundled services through the local API host (Google's local services) for an app
 * bundling the real SDK 4.0.2, on EE10 in HttpConnector mode with the JDK running the tests:
 * Datastore, Memcache, Task Queue (headers, retries, an unknown queue), DeferredTask, URL Fetch, a
 * deadline, an unknown service, an async call, a ThreadManager thread; the start line and {@code
 * /_ah/dev}; Datastore data surviving a restart; the API ticket.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BundledServicesTest {
  @RegisterExtension final Runtimes runtimes = new Runtimes();
  private Path data;
  private RuntimeProcess runtime;

  @BeforeAll
  void start() throws Exception {
    data = TempDirs.deletedAtExit("aerun-apis-data-");
    runtime = launch(data);
  }

  private RuntimeProcess launch(Path data) throws Exception {
    RuntimeProcess started =
        runtimes.start(
            RuntimeProcess.launch(RuntimeProcess.app("sample-apis-ee10.war"))
                .args("--development", "--log-format", "text", "--api-data", data.toString())
                .env("AERUN_API_HOST_LOG_CALLS", "1"));
    started.port();
    return started;
  }

  @Test
  void datastorePutGetQueryTransaction() throws Exception {
    call(runtime, "put?name=alpha&value=v-alpha");
    assertEquals("v-alpha", value(call(runtime, "get?name=alpha"), "value"));
    assertEquals("1", value(call(runtime, "query?value=v-alpha"), "count"));
    assertEquals("1", value(call(runtime, "transaction?name=tx"), "counter"));
    assertEquals("2", value(call(runtime, "transaction?name=tx"), "counter"));
    String missing = call(runtime, "get?name=nobody");
    assertTrue(
        value(missing, "failure")
            .startsWith("com.google.appengine.api.datastore.EntityNotFoundException"),
        missing);
  }

  @Test
  void memcacheSetGetIncrement() throws Exception {
    String body = call(runtime, "memcache");
    assertEquals("hello", value(body, "get"));
    assertEquals("15", value(body, "increment"));
  }

  @Test
  void pushTaskReachesItsServletWithThePlatformsHeaders() throws Exception {
    String task = value(call(runtime, "task?queue=default&id=t-default"), "added");
    String seen = seenBlocking(runtime, "t-default", Duration.ofSeconds(30));
    assertTrue(seen.contains("queue=default"), seen);
    assertTrue(seen.contains("task=" + task), seen);
    assertTrue(seen.contains("retry=0"), seen);
    assertTrue(seen.contains("executions=0"), seen);
    assertTrue(seen.contains("eta=true"), seen);
    // The runtime believed the headers: they came from a trusted peer.
    assertTrue(seen.contains("trustedQueue=default"), seen);
    assertTrue(seen.contains("body=p-t-default"), seen);
  }

  @Test
  void failingTaskIsRetriedAsQueueXmlSays() throws Exception {
    call(runtime, "task?queue=fast&id=t-retry&fail=1");
    String seen = seenBlocking(runtime, "t-retry", Duration.ofSeconds(30));
    assertTrue(seen.contains("queue=fast"), seen);
    assertTrue(seen.contains("retry=1"), seen);
    assertTrue(value(call(runtime, "seen?id=t-retry-failed"), "seen").contains("retry=0"));
  }

  @Test
  void deferredTaskRuns() throws Exception {
    assertEquals("added", value(call(runtime, "deferred?id=d-1"), "deferred"));
    assertEquals("deferred ran", seenBlocking(runtime, "d-1", Duration.ofSeconds(30)));
  }

  @Test
  void deferredPathIsForTrustedTasksOnly() throws Exception {
    // A client that is no task (no trusted X-AppEngine-QueueName) is not let in.
    RawResponse response =
        RawResponse.send(runtime.port(), "POST", "/_ah/queue/__deferred__", "Content-Length: 0");
    assertEquals(302, response.status(), response.body());
  }

  @Test
  void unknownQueueIsTheApplicationErrorThePlatformGives() throws Exception {
    String failure = value(call(runtime, "task?queue=nope&id=t-nope"), "failure");
    assertTrue(failure.startsWith("java.lang.IllegalStateException"), failure);
    assertTrue(failure.contains("unknown"), failure);
  }

  @Test
  void urlFetchReallyFetches() throws Exception {
    String body = call(runtime, "urlfetch?url=http://127.0.0.1:" + runtime.port() + "/slow?ms=1");
    assertEquals("200", value(body, "status"));
    assertEquals("slow answer", value(body, "body"));
  }

  @Test
  void callPastItsDeadlineIsApiDeadlineExceeded() throws Exception {
    String body =
        call(runtime, "deadline?url=http://127.0.0.1:" + runtime.port() + "/slow?ms=4000");
    assertTrue(
        value(body, "failure")
            .startsWith("com.google.apphosting.api.ApiProxy$ApiDeadlineExceededException"),
        body);
    long took = Long.parseLong(value(body, "tookMs"));
    assertTrue(took < 3000, "took " + took + " ms for a 0.5 s deadline");
  }

  @Test
  void unknownServiceIsCallNotFound() throws Exception {
    String failure = value(call(runtime, "unknown-service"), "failure");
    assertTrue(
        failure.startsWith("com.google.apphosting.api.ApiProxy$CallNotFoundException"), failure);
  }

  @Test
  void asyncCallsAreFutures() throws Exception {
    assertEquals("async", value(call(runtime, "async?name=a1"), "async"));
  }

  @Test
  void threadManagerThreadsCarryTheRequestsEnvironment() throws Exception {
    assertEquals("yes remaining=true", value(call(runtime, "thread"), "thread"));
  }

  @Test
  void aCallAfterItsRequestEndedFailsClearly() throws Exception {
    assertEquals("started", value(call(runtime, "late?id=late-1"), "late"));
    String seen = seenBlocking(runtime, "late-1", Duration.ofSeconds(30));
    assertTrue(seen.contains("CancelledException"), seen);
    assertTrue(seen.contains("already ended"), seen);
  }

  @Test
  void startLineAndStatusPageShowTheHost() throws Exception {
    assertTrue(
        Pattern.compile(
                "local API host at 127\\.0\\.0\\.1:\\d+ \\(data in "
                    + Pattern.quote(data.toString()))
            .matcher(runtime.output())
            .find(),
        runtime.output());
    RawResponse page = RawResponse.get(runtime.port(), "/_ah/dev");
    assertTrue(page.body().contains("API host: local, 127.0.0.1:"), page.body());
    assertTrue(page.body().contains("API data: " + data), page.body());
  }

  @Test
  void trustedTicketIsTheCallsRequestId() throws Exception {
    call(runtime, "memcache", "X-AppEngine-Api-Ticket: ticket-from-front-end");
    runtime.awaitOutput(Pattern.compile("request_id=ticket-from-front-end"));
  }

  @Test
  void datastoreSurvivesARestartOfTheDevServer() throws Exception {
    call(runtime, "put?name=kept&value=v-kept");
    runtime.sendSigterm();
    assertEquals(0, runtime.waitFor(60));
    assertTrue(Files.size(data.resolve("datastore.bin")) > 0);
    runtime = launch(data);
    assertEquals("v-kept", value(call(runtime, "get?name=kept"), "value"));
  }

  @Test
  void aHostThatDiesIsStartedAgain() throws Exception {
    hostOf(runtime).destroyForcibly();
    runtime.awaitOutput(
        Pattern.compile("The local API host exited \\(code \\d+\\): starting it again on 127"));
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    String body = call(runtime, "memcache");
    while (!body.contains("get=hello") && System.nanoTime() < deadline) {
      Thread.sleep(200);
      body = call(runtime, "memcache");
    }
    assertEquals("hello", value(body, "get"), body);
    // The new host knows where the app serves: tasks still arrive.
    call(runtime, "task?queue=default&id=t-after-restart");
    assertTrue(
        seenBlocking(runtime, "t-after-restart", Duration.ofSeconds(30)).contains("queue=default"));
  }

  private static ProcessHandle hostOf(RuntimeProcess runtime) {
    return ProcessHandle.of(runtime.pid())
        .orElseThrow()
        .children()
        .filter(p -> p.info().commandLine().orElse("").contains("LocalApiHostMain"))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void theHostDiesWithTheDevServer() throws Exception {
    // A data folder of its own: the killed host writes its Datastore as it ends.
    RuntimeProcess doomed = launch(TempDirs.deletedAtExit("aerun-apis-doomed-"));
    ProcessHandle host = hostOf(doomed);
    ProcessHandle.of(doomed.pid()).orElseThrow().destroyForcibly(); // kill -9
    host.onExit().get(30, java.util.concurrent.TimeUnit.SECONDS);
    assertFalse(host.isAlive());
  }
}
