package dev.aerun.rpc.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.rpc.proto.UPResponse;
import dev.aerun.runtime.contract.RequestLimits;
import dev.aerun.runtime.load.Capacity;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The runtime role takes no more calls than its capacity runs and queues: a front end that sends
 * more (a second one, or one configured for more) gets 503 for the rest instead of an unbounded
 * queue of calls waiting for a thread.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RuntimeOverloadTest {
  /** Holds every request until released. */
  static final class HoldingApp extends Handler.Abstract {
    final CountDownLatch release = new CountDownLatch(1);
    final CountDownLatch entered;

    HoldingApp(int expected) {
      entered = new CountDownLatch(expected);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback)
        throws InterruptedException {
      entered.countDown();
      release.await(60, TimeUnit.SECONDS);
      Response.writeError(request, response, callback, 200);
      return true;
    }
  }

  @Test
  void handleRequest_beyondWhatTheCapacityRunsAndQueues_isRefusedAtOnce() throws Exception {
    // One running, one queued.
    Capacity capacity = new Capacity(1, 1, Duration.ofSeconds(1), false);
    HoldingApp app = new HoldingApp(1);
    try (InProcessRuntime rpc =
        new InProcessRuntime(app, RequestLimits.defaults(), capacity, true)) {
      List<CompletableFuture<UPResponse>> held = new ArrayList<>();
      for (int i = 0; i < 2; i++) {
        held.add(CompletableFuture.supplyAsync(() -> rpc.call(InProcessRuntime.get("/h").build())));
      }
      assertTrue(app.entered.await(60, TimeUnit.SECONDS));
      // The second call is in progress too (waiting for a thread, or running): wait until the
      // runtime counts both.
      RpcConnector connector = rpc.runtime.runningConnector();
      while (connector.callsInProgress() < 2) {
        Thread.sleep(10);
      }

      // Before, this call queued behind the others and waited as long as they did.
      UPResponse refused =
          CompletableFuture.supplyAsync(() -> rpc.call(InProcessRuntime.get("/h").build()))
              .get(30, TimeUnit.SECONDS);

      assertEquals(UPResponse.Error.UNKNOWN_APP, refused.getError());
      assertEquals(503, refused.getHttpStatus());
      app.release.countDown();
      for (CompletableFuture<UPResponse> call : held) {
        assertEquals(UPResponse.Error.OK, call.get(60, TimeUnit.SECONDS).getError());
      }
    }
  }
}
