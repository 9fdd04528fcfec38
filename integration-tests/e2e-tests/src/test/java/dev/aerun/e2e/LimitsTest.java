package dev.aerun.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.testing.RuntimeProcess;
import dev.aerun.testing.Runtimes;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.concurrent.Flow;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The limits and error answers of the request contract (docs/REQUESTS.md), over real sockets. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LimitsTest {
  @RegisterExtension final Runtimes runtimes = new Runtimes();

  private static final long MIB = 1024 * 1024;
  private RuntimeProcess runtime;
  private RuntimeProcess unlimited;

  @BeforeAll
  void start() throws Exception {
    runtime = runtimes.start(RuntimeProcess.launch(RuntimeProcess.app("sample-ee10-app.war")));
    unlimited =
        runtimes.start(
            RuntimeProcess.launch(RuntimeProcess.app("sample-ee8-app.war"))
                .property("appengine.ignore.responseSizeLimit", "true"));
    runtime.port();
    unlimited.port();
  }

  /** A body of {@code size} zero bytes whose length is not announced: sent chunked. */
  private static HttpRequest.BodyPublisher chunked(long size) {
    HttpRequest.BodyPublisher fixed = HttpRequest.BodyPublishers.ofInputStream(() -> zeros(size));
    return new HttpRequest.BodyPublisher() {
      @Override
      public long contentLength() {
        return -1;
      }

      @Override
      public void subscribe(Flow.Subscriber<? super ByteBuffer> subscriber) {
        fixed.subscribe(subscriber);
      }
    };
  }

  private static InputStream zeros(long size) {
    return new InputStream() {
      long left = size;

      @Override
      public int read() {
        return left-- > 0 ? 0 : -1;
      }

      @Override
      public int read(byte[] b, int off, int len) {
        if (left <= 0) {
          return -1;
        }
        int n = (int) Math.min(len, left);
        left -= n;
        java.util.Arrays.fill(b, off, off + n, (byte) 0);
        return n;
      }
    };
  }

  @Test
  void requestBodyOver32MiBWithContentLengthGets413() throws Exception {
    String response =
        Http.raw(
            runtime.port(),
            "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: "
                + (32 * MIB + 1)
                + "\r\nContent-Type: application/octet-stream\r\n\r\n");
    assertTrue(response.startsWith("HTTP/1.1 413 "), response);
    SampleAppTest.assertNoInternals(response);
  }

  @Test
  void streamedRequestBodyOver32MiBGets413() throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(runtime.uri("/request-info")).POST(chunked(33 * MIB)).build();
    // Its own client: the server closes the connection after refusing, which must not affect
    // the pooled connections other tests use.
    try {
      HttpResponse<byte[]> response =
          Http.newClient().send(request, HttpResponse.BodyHandlers.ofByteArray());
      assertEquals(413, response.statusCode());
    } catch (IOException e) {
      // The server may close the connection while the client is still sending; then the status
      // line is lost, but the upload was refused, which is what matters. Check the next request.
      assertEquals(200, Http.get(runtime.uri("/hello")).statusCode());
    }
  }

  @Test
  void requestBodyOf32MiBExactlyIsAccepted() throws Exception {
    // The app reads the whole body and reports its length; chunked, so only the streamed count
    // can stop it.
    HttpRequest request =
        HttpRequest.newBuilder(runtime.uri("/request-info")).POST(chunked(32 * MIB)).build();
    HttpResponse<String> response =
        Http.newClient().send(request, HttpResponse.BodyHandlers.ofString());
    assertEquals(200, response.statusCode(), response.body());
    assertTrue(response.body().contains("\"bodyLength\": " + (32 * MIB)), response.body());
  }

  @Test
  void responseDeclaredOver32MiBGets500() throws Exception {
    // The app declares the length first, so the breach is known before the response commits.
    HttpResponse<String> response =
        Http.get(runtime.uri("/generate?length=true&bytes=" + (33 * MIB)));
    assertEquals(500, response.statusCode());
    SampleAppTest.assertNoInternals(response.body());
  }

  @Test
  void responseOver32MiBAfterCommitIsAborted() {
    // The documented difference: once the status line is out, the stream is cut short instead.
    assertThrows(
        IOException.class,
        () -> {
          HttpRequest request =
              HttpRequest.newBuilder(runtime.uri("/generate?flush=true&bytes=" + (33 * MIB)))
                  .build();
          HttpResponse<InputStream> response =
              Http.CLIENT.send(request, HttpResponse.BodyHandlers.ofInputStream());
          assertEquals(200, response.statusCode());
          try (InputStream in = response.body()) {
            in.transferTo(java.io.OutputStream.nullOutputStream());
          }
        });
  }

  @Test
  void ignoreResponseSizeLimitLiftsTheLimit() throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(unlimited.uri("/generate?bytes=" + (33 * MIB))).build();
    HttpResponse<InputStream> response =
        Http.CLIENT.send(request, HttpResponse.BodyHandlers.ofInputStream());
    assertEquals(200, response.statusCode());
    try (InputStream in = response.body()) {
      assertEquals(33 * MIB, in.transferTo(java.io.OutputStream.nullOutputStream()));
    }
  }

  @Test
  void headerSectionTooLargeGets431() throws Exception {
    String response =
        Http.raw(
            runtime.port(),
            "GET /hello HTTP/1.1\r\nHost: x\r\nX-Big: " + "a".repeat(80 * 1024) + "\r\n\r\n");
    assertTrue(response.startsWith("HTTP/1.1 431 "), response);
    SampleAppTest.assertNoInternals(response);
  }

  @Test
  void requestLineTooLongGets414() throws Exception {
    String response =
        Http.raw(
            runtime.port(),
            "GET /hello?q=" + "b".repeat(70 * 1024) + " HTTP/1.1\r\nHost: x\r\n\r\n");
    assertTrue(response.startsWith("HTTP/1.1 414 "), response);
    SampleAppTest.assertNoInternals(response);
  }

  @Test
  void malformedRequestGets400() throws Exception {
    String response = Http.raw(runtime.port(), "GARBAGE\r\n\r\n");
    assertTrue(response.startsWith("HTTP/1.1 400 "), response);
    SampleAppTest.assertNoInternals(response);
  }

  @Test
  void badHeaderLineGets400() throws Exception {
    String response =
        Http.raw(runtime.port(), "GET /hello HTTP/1.1\r\nHost: x\r\nNo colon here\r\n\r\n");
    assertTrue(response.startsWith("HTTP/1.1 400 "), response);
    SampleAppTest.assertNoInternals(response);
  }
}
