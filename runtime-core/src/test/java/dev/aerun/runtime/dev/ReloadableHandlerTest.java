package dev.aerun.runtime.dev;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.runtime.webapp.Deployment;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.http.HttpTester;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.LocalConnector;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ReloadableHandlerTest {
  private static final String GET = "GET / HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n";

  private Server server;
  private LocalConnector connector;
  private ReloadableHandler reloadable;
  private Text first;

  @BeforeEach
  void start() throws Exception {
    server = new Server();
    connector = new LocalConnector(server);
    server.addConnector(connector);
    first = new Text("one");
    reloadable = new ReloadableHandler(Deployment::webapp, Deployment.of(first));
    server.setHandler(reloadable);
    server.start();
  }

  @AfterEach
  void stop() throws Exception {
    server.stop();
  }

  private HttpTester.Response get() throws Exception {
    return HttpTester.parseResponse(connector.getResponse(GET, 60, TimeUnit.SECONDS));
  }

  @Test
  void reload_replacesTheApp_andStopsTheOldOne() throws Exception {
    assertEquals("one", get().getContent());
    Text second = new Text("two");
    ReloadableHandler.Outcome outcome = reloadable.reloadBlocking(() -> Deployment.of(second));
    assertTrue(outcome.succeeded());
    assertEquals("two", get().getContent());
    assertTrue(first.isStopped());
    assertTrue(second.isStarted());
    assertEquals(second, reloadable.getHandler());
  }

  @Test
  void requestsDuringAReload_waitAndAreServedByTheNewApp() throws Exception {
    CountDownLatch building = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    CompletableFuture<ReloadableHandler.Outcome> reload =
        CompletableFuture.supplyAsync(
            () ->
                reloadable.reloadBlocking(
                    () -> {
                      building.countDown();
                      release.await();
                      return Deployment.of(new Text("two"));
                    }));
    assertTrue(building.await(30, TimeUnit.SECONDS));
    CompletableFuture<HttpTester.Response> during =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return get();
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    Thread.sleep(200); // it must still be waiting: the new app is not there yet
    assertFalse(during.isDone());
    release.countDown();
    HttpTester.Response response = during.get(60, TimeUnit.SECONDS);
    assertEquals(200, response.getStatus());
    assertEquals("two", response.getContent());
    assertTrue(reload.get(60, TimeUnit.SECONDS).succeeded());
  }

  @Test
  void failedReload_answers500WithoutDetailsToOthers_thenTheNextReloadRecovers() throws Exception {
    ReloadableHandler.Outcome failed =
        reloadable.reloadBlocking(
            () -> {
              throw new IllegalStateException("boom in init");
            });
    assertFalse(failed.succeeded());
    assertEquals("boom in init", failed.failure().orElseThrow().getMessage());
    assertTrue(first.isStopped(), "the old app is stopped");
    HttpTester.Response broken = get();
    assertEquals(500, broken.getStatus());
    // LocalConnector's peer is not loopback: no message, no stack trace.
    assertFalse(broken.getContent().contains("boom"), broken.getContent());

    Text fixed = new Text("fixed");
    ReloadableHandler.Outcome recovered = reloadable.reloadBlocking(() -> Deployment.of(fixed));
    assertTrue(recovered.succeeded());
    assertEquals("fixed", get().getContent());
  }

  @Test
  void appThatFailsToStart_isStoppedAndLeftOut() throws Exception {
    Text failing =
        new Text("never") {
          @Override
          protected void doStart() throws Exception {
            throw new IllegalStateException("listener threw");
          }
        };
    assertFalse(reloadable.reloadBlocking(() -> Deployment.of(failing)).succeeded());
    assertEquals(first, reloadable.getHandler());
    assertEquals(500, get().getStatus());
  }

  /** Answers its text. */
  private static class Text extends Handler.Abstract {
    private final String text;

    Text(String text) {
      this.text = text;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
      response.setStatus(200);
      response.write(true, StandardCharsets.UTF_8.encode(text), callback);
      return true;
    }
  }
}
