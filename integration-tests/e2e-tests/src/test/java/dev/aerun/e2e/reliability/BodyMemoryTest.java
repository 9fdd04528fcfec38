package dev.aerun.e2e.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.testing.RawResponse;
import dev.aerun.testing.RuntimeProcess;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.client.BytesRequestContent;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.client.Result;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The memory the runtime holds for bodies is bounded, whatever clients announce or send: legacy
 * mode buffers whole bodies, so it grows buffers as bytes arrive and answers a fast 503 when the
 * bodies in flight would pass its budget, instead of an {@code OutOfMemoryError}.
 */
class BodyMemoryTest {
  private static final int MIB = 1024 * 1024;

  /**
   * A dozen requests that announce 32 MiB bodies and send 1 KiB: nothing is allocated for bytes
   * that never came, so a 128 MiB heap serves on.
   */
  @ParameterizedTest
  @ValueSource(strings = {"http", "legacy"})
  void announcedBodiesAllocateNothingUpFront(String mode) throws Exception {
    try (RuntimeProcess runtime =
        RuntimeProcess.launch(RuntimeProcess.app("sample-ee10-app.war"))
            .jvmOption("-Xmx128m")
            .args("--mode", mode)
            .start()) {
      List<Socket> holders = new ArrayList<>();
      try {
        for (int i = 0; i < 12; i++) {
          Socket socket = new Socket("127.0.0.1", runtime.port());
          socket
              .getOutputStream()
              .write(
                  ("POST /request-info HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: "
                          + 32 * MIB
                          + "\r\n\r\n"
                          + "x".repeat(1024))
                      .getBytes(StandardCharsets.US_ASCII));
          holders.add(socket);
        }
        Thread.sleep(2_000); // every one of them reached the front end's buffering

        assertEquals(
            "HTTP/1.1 200 OK",
            RawResponse.get(runtime.port(), "/hello").statusLine(),
            runtime.output());
        assertFalse(runtime.output().contains("OutOfMemoryError"), runtime.output());
      } finally {
        for (Socket socket : holders) {
          socket.close();
        }
      }
    }
  }

  /**
   * Eight 30 MiB uploads and eight 30 MiB downloads at once on a 512 MiB heap: every one gets 200
   * or a 503, never an {@code OutOfMemoryError}, and the instance serves on afterwards.
   */
  @ParameterizedTest
  @ValueSource(strings = {"http", "legacy"})
  void largeBodiesBothWays_200sOr503s_neverOutOfMemory(String mode) throws Exception {
    try (RuntimeProcess runtime =
        RuntimeProcess.launch(RuntimeProcess.app("sample-ee10-app.war"))
            .jvmOption("-Xmx512m")
            .args("--mode", mode)
            .start()) {
      byte[] upload = new byte[30 * MIB];
      HttpClient client = new HttpClient();
      client.setMaxConnectionsPerDestination(32);
      client.start();
      try {
        List<CompletableFuture<Integer>> exchanges = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
          CompletableFuture<Integer> done = new CompletableFuture<>();
          client
              .POST(runtime.uri("/request-info"))
              .body(new BytesRequestContent(upload))
              .timeout(180, TimeUnit.SECONDS)
              .send(statusOf(done));
          exchanges.add(done);
          CompletableFuture<Integer> downloaded = new CompletableFuture<>();
          client
              .newRequest(runtime.uri("/generate?bytes=" + 30 * MIB))
              .timeout(180, TimeUnit.SECONDS)
              .send(statusOf(downloaded));
          exchanges.add(downloaded);
        }
        int ok = 0;
        for (CompletableFuture<Integer> exchange : exchanges) {
          int status = exchange.get(240, TimeUnit.SECONDS);
          assertTrue(status == 200 || status == 503, "status " + status + "\n" + runtime.output());
          ok += status == 200 ? 1 : 0;
        }
        assertTrue(ok > 0, "nothing was served\n" + runtime.output());
        assertFalse(runtime.output().contains("OutOfMemoryError"), runtime.output());
        assertEquals(
            "HTTP/1.1 200 OK",
            RawResponse.get(runtime.port(), "/hello").statusLine(),
            runtime.output());
      } finally {
        client.stop();
      }
    }
  }

  /** The response's status once it completed, draining the body without keeping it. */
  private static Response.Listener statusOf(CompletableFuture<Integer> done) {
    return new Response.Listener() {
      @Override
      public void onContent(Response response, ByteBuffer content) {
        content.position(content.limit());
      }

      @Override
      public void onComplete(Result result) {
        // A 503 may come while the upload is still being sent: the response counts.
        done.complete(result.getResponse() == null ? 0 : result.getResponse().getStatus());
      }
    };
  }
}
