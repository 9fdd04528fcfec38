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
 * mode buffers whole bodies, so it grows buffers as bytes arrive, and a body that does not fit
 * waits its turn for memory others give back, instead of an {@code OutOfMemoryError} or a 503.
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
   * with its whole body (legacy mode serves them a few at a time, in arrival order), never a 503 or
   * an {@code OutOfMemoryError}, and the instance serves on afterwards.
   */
  @ParameterizedTest
  @ValueSource(strings = {"http", "legacy"})
  void largeBodiesBothWays_allServedWhole_neverOutOfMemory(String mode) throws Exception {
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
        List<CompletableFuture<String>> uploads = new ArrayList<>();
        List<CompletableFuture<String>> downloads = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
          CompletableFuture<String> done = new CompletableFuture<>();
          client
              .POST(runtime.uri("/request-info"))
              .body(new BytesRequestContent(upload))
              .timeout(180, TimeUnit.SECONDS)
              .send(outcomeOf(done, true));
          uploads.add(done);
          CompletableFuture<String> downloaded = new CompletableFuture<>();
          client
              .newRequest(runtime.uri("/generate?bytes=" + 30 * MIB))
              .timeout(180, TimeUnit.SECONDS)
              .send(outcomeOf(downloaded, false));
          downloads.add(downloaded);
        }
        for (CompletableFuture<String> exchange : uploads) {
          // The app read the whole upload: /request-info reports the length it read.
          String outcome = exchange.get(240, TimeUnit.SECONDS);
          assertTrue(
              outcome.startsWith("200 ") && outcome.contains("\"bodyLength\": " + 30 * MIB),
              outcome.substring(0, Math.min(300, outcome.length())) + "\n" + runtime.output());
        }
        for (CompletableFuture<String> exchange : downloads) {
          assertEquals("200 " + 30 * MIB + " bytes", exchange.get(240, TimeUnit.SECONDS));
        }
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

  /**
   * {@code "<status> <body>"} (small bodies kept) or {@code "<status> <n> bytes"} (only counted)
   * once the exchange completed, followed by its failure if it failed (status 0: no response).
   */
  private static Response.Listener outcomeOf(CompletableFuture<String> done, boolean keepBody) {
    return new Response.Listener() {
      private final StringBuilder body = new StringBuilder();
      private long bytes;

      @Override
      public void onContent(Response response, ByteBuffer content) {
        bytes += content.remaining();
        if (keepBody) {
          body.append(StandardCharsets.UTF_8.decode(content));
        } else {
          content.position(content.limit());
        }
      }

      @Override
      public void onComplete(Result result) {
        int status = result.getResponse() == null ? 0 : result.getResponse().getStatus();
        String what = keepBody ? body.toString() : bytes + " bytes";
        done.complete(status + " " + what + (result.isFailed() ? " " + result.getFailure() : ""));
      }
    };
  }
}
