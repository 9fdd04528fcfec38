package dev.aerun.runtime.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.aayushatharva.brotli4j.decoder.Decoder;
import com.github.luben.zstd.Zstd;
import dev.aerun.runtime.contract.AppBodyHandler;
import dev.aerun.runtime.errors.NoDetailsErrorHandler;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpTester;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.LocalConnector;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class BodyCompressionHandlerTest {
  private static final String TEXT = "a line of compressible text\n".repeat(100);

  private Server server;
  private LocalConnector connector;

  @AfterEach
  void stop() throws Exception {
    if (server != null) {
      server.stop();
    }
  }

  /** Answers {@code ?type} (default text/plain) with {@code ?size} bytes of TEXT (default all). */
  private static final class Text extends Handler.Abstract {
    @Override
    public boolean handle(Request request, Response response, Callback callback) {
      var query = Request.extractQueryParameters(request);
      String type = query.getValue("type");
      int size =
          query.getValue("size") == null ? TEXT.length() : Integer.parseInt(query.getValue("size"));
      response.getHeaders().put(HttpHeader.CONTENT_TYPE, type == null ? "text/plain" : type);
      response.getHeaders().put(HttpHeader.ETAG, "\"v1\"");
      if (query.getValue("encoding") != null) {
        response.getHeaders().put(HttpHeader.CONTENT_ENCODING, query.getValue("encoding"));
      }
      response.write(
          true,
          ByteBuffer.wrap(TEXT.substring(0, size).getBytes(StandardCharsets.UTF_8)),
          callback);
      return true;
    }
  }

  /** Echoes the request's body and the headers the app saw. */
  private static final class Echo extends Handler.Abstract {
    @Override
    public boolean handle(Request request, Response response, Callback callback) {
      Content.Source.asString(
          request,
          StandardCharsets.UTF_8,
          new org.eclipse.jetty.util.Promise<>() {
            @Override
            public void succeeded(String body) {
              var headers = request.getHeaders();
              response
                  .getHeaders()
                  .put(
                      "Seen-Content-Encoding",
                      String.valueOf(headers.get(HttpHeader.CONTENT_ENCODING)));
              response
                  .getHeaders()
                  .put(
                      "Seen-Content-Length",
                      String.valueOf(headers.get(HttpHeader.CONTENT_LENGTH)));
              response
                  .getHeaders()
                  .put(
                      "Seen-X-Content-Encoding", String.valueOf(headers.get("X-Content-Encoding")));
              response
                  .getHeaders()
                  .put("Seen-X-Content-Length", String.valueOf(headers.get("X-Content-Length")));
              response.getHeaders().put("Seen-Length", String.valueOf(body.length()));
              response
                  .getHeaders()
                  .put(HttpHeader.CONTENT_TYPE, "image/png"); // not compressed back
              Content.Sink.write(
                  response, true, body.substring(0, Math.min(64, body.length())), callback);
            }

            @Override
            public void failed(Throwable failure) {
              Response.writeError(request, response, callback, failure);
            }
          });
      return true;
    }
  }

  private void start(Handler app, long requestLimit) throws Exception {
    server = new Server();
    server.setErrorHandler(new NoDetailsErrorHandler());
    connector = new LocalConnector(server);
    server.addConnector(connector);
    server.setHandler(
        HandlerChain.of(new BodyCompressionHandler(), new AppBodyHandler(requestLimit, -1), app));
    server.start();
  }

  private HttpTester.Response get(String uri, String acceptEncoding) throws Exception {
    String raw =
        "GET "
            + uri
            + " HTTP/1.1\r\nHost: localhost\r\n"
            + (acceptEncoding == null ? "" : "Accept-Encoding: " + acceptEncoding + "\r\n")
            + "Connection: close\r\n\r\n";
    return HttpTester.parseResponse(connector.getResponse(BufferUtil.toBuffer(raw)));
  }

  private HttpTester.Response send(HttpTester.Request request) throws Exception {
    return HttpTester.parseResponse(connector.getResponse(request.generate()));
  }

  private static byte[] gzip(byte[] plain) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
      gzip.write(plain);
    }
    return out.toByteArray();
  }

  private static String gunzip(byte[] compressed) throws Exception {
    try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(compressed))) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void gzipResponseForAClientThatAcceptsOnlyGzip() throws Exception {
    start(new Text(), -1);
    HttpTester.Response response = get("/", "gzip");
    assertEquals(200, response.getStatus());
    assertEquals("gzip", response.get(HttpHeader.CONTENT_ENCODING));
    assertEquals("Accept-Encoding", response.get(HttpHeader.VARY));
    assertEquals("\"v1--gzip\"", response.get(HttpHeader.ETAG));
    assertEquals(TEXT, gunzip(response.getContentBytes()));
    assertTrue(response.getContentBytes().length < TEXT.length() / 4);
  }

  @Test
  void theClientsWeightsChooseTheCodingOursBreaksTies() throws Exception {
    start(new Text(), -1);
    assertEquals("gzip", get("/", "br;q=0, gzip").get(HttpHeader.CONTENT_ENCODING));
    assertEquals("gzip", get("/", "br;q=0.5, gzip").get(HttpHeader.CONTENT_ENCODING));
    assertEquals("gzip", get("/", "gzip;q=1.0, br;q=0.5").get(HttpHeader.CONTENT_ENCODING));
    assertEquals("br", get("/", "br;q=1, gzip;q=0.8").get(HttpHeader.CONTENT_ENCODING));
    assertEquals(
        "zstd", get("/", "gzip;q=0.5, br;q=0.5, zstd;q=0.5").get(HttpHeader.CONTENT_ENCODING));
    HttpTester.Response zstd = get("/", "gzip, deflate, br, zstd");
    assertEquals("zstd", zstd.get(HttpHeader.CONTENT_ENCODING));
    assertEquals(
        TEXT,
        new String(Zstd.decompress(zstd.getContentBytes(), TEXT.length()), StandardCharsets.UTF_8));
    HttpTester.Response brotli = get("/", "gzip, br");
    assertEquals("br", brotli.get(HttpHeader.CONTENT_ENCODING));
    assertEquals(
        TEXT,
        new String(
            Decoder.decompress(brotli.getContentBytes()).getDecompressedData(),
            StandardCharsets.UTF_8));
  }

  @Test
  void starAndIdentityFollowTheirWeights() throws Exception {
    start(new Text(), -1);
    assertEquals("zstd", get("/", "*").get(HttpHeader.CONTENT_ENCODING));
    assertEquals("gzip", get("/", "gzip;q=0.9, *;q=0.1").get(HttpHeader.CONTENT_ENCODING));
    assertEquals("zstd", get("/", "br;q=0.9, *").get(HttpHeader.CONTENT_ENCODING));
    assertEquals("br", get("/", "*, zstd;q=0").get(HttpHeader.CONTENT_ENCODING));
    assertEquals("gzip", get("/", "identity;q=0, gzip").get(HttpHeader.CONTENT_ENCODING));
    HttpTester.Response none = get("/", "*;q=0");
    assertEquals(200, none.getStatus());
    assertNull(none.get(HttpHeader.CONTENT_ENCODING));
    assertEquals(TEXT, none.getContent());
    // Identity refused and nothing else acceptable: answered as it is, not refused (Jetty's own
    // negotiation answers 415 here, which is about request bodies).
    HttpTester.Response refused = get("/", "compress, identity;q=0");
    assertEquals(200, refused.getStatus());
    assertNull(refused.get(HttpHeader.CONTENT_ENCODING));
    assertEquals(TEXT, refused.getContent());
  }

  @Test
  void theNextHandlerSeesTheClientsAcceptEncoding() throws Exception {
    start(new SeenAcceptEncoding(), -1);
    String raw =
        "GET / HTTP/1.1\r\nHost: localhost\r\nAccept-Encoding: br;q=0.2\r\n"
            + "If-None-Match: \"v1--gzip\"\r\nAccept-Encoding: gzip;q=0.9, zstd;q=0\r\n"
            + "Connection: close\r\n\r\n";
    HttpTester.Response response =
        HttpTester.parseResponse(connector.getResponse(BufferUtil.toBuffer(raw)));
    assertEquals("gzip", response.get(HttpHeader.CONTENT_ENCODING));
    assertEquals(
        "Host: localhost|Accept-Encoding: br;q=0.2|If-None-Match: \"v1\""
            + "|Accept-Encoding: gzip;q=0.9, zstd;q=0|Connection: close",
        gunzip(response.getContentBytes()).strip());
  }

  /** Answers the request's header fields, as the next handler saw them, one per line. */
  private static final class SeenAcceptEncoding extends Handler.Abstract {
    @Override
    public boolean handle(Request request, Response response, Callback callback) {
      StringBuilder seen = new StringBuilder();
      for (var field : request.getHeaders()) {
        seen.append(seen.isEmpty() ? "" : "|").append(field.getName()).append(": ");
        seen.append(field.getValue());
      }
      response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain");
      Content.Sink.write(response, true, seen + " ".repeat(300), callback);
      return true;
    }
  }

  @Test
  void varyKeepsTheAppsValuesAndNamesAcceptEncodingOnce() throws Exception {
    start(new Varying(), -1);
    // Replacing or adding, the app's values stay and Accept-Encoding joins them once.
    assertEquals(
        List.of("Cookie, Accept-Encoding"), get("/?put=Cookie", "gzip").getValuesList("Vary"));
    assertEquals(
        List.of("Cookie, Origin, Accept-Encoding"),
        get("/?add=Cookie&add=Origin", "gzip").getValuesList("Vary"));
    assertEquals(
        List.of("accept-encoding, Cookie"),
        get("/?put=accept-encoding,%20Cookie", "gzip").getValuesList("Vary"));
    assertEquals(List.of("Accept-Encoding"), get("/", "gzip").getValuesList("Vary"));
    // A handler that completes without writing commits with the same header.
    assertEquals(
        List.of("Cookie, Accept-Encoding"),
        get("/?put=Cookie&empty=true", "gzip").getValuesList("Vary"));
    // Nothing negotiated: the app's own only.
    assertEquals(List.of("Cookie"), get("/?put=Cookie", null).getValuesList("Vary"));
  }

  /** Sets {@code Vary} as told ({@code ?put}, {@code ?add}), then answers TEXT or nothing. */
  private static final class Varying extends Handler.Abstract {
    @Override
    public boolean handle(Request request, Response response, Callback callback) {
      var query = Request.extractQueryParameters(request);
      // What the app sees before it answers: no Vary of the compression's, as in legacy mode.
      assertNull(response.getHeaders().get(HttpHeader.VARY));
      if (query.getValue("put") != null) {
        response.getHeaders().put(HttpHeader.VARY, query.getValue("put"));
      }
      for (String value : query.getValuesOrEmpty("add")) {
        response.getHeaders().add(HttpHeader.VARY, value);
      }
      if (query.getValue("empty") != null) {
        callback.succeeded();
      } else {
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain");
        Content.Sink.write(response, true, TEXT, callback);
      }
      return true;
    }
  }

  @Test
  void noCompressionWithoutAcceptEncoding() throws Exception {
    start(new Text(), -1);
    HttpTester.Response response = get("/", null);
    assertNull(response.get(HttpHeader.CONTENT_ENCODING));
    assertEquals(TEXT, response.getContent());
    assertEquals("\"v1\"", response.get(HttpHeader.ETAG));
  }

  @Test
  void bodiesUnder256BytesAreSentAsTheyAre() throws Exception {
    start(new Text(), -1);
    assertNull(get("/?size=255", "gzip").get(HttpHeader.CONTENT_ENCODING));
    assertEquals("gzip", get("/?size=256", "gzip").get(HttpHeader.CONTENT_ENCODING));
  }

  @Test
  void compressedTypesAreNotCompressedAgainButOctetStreamIs() throws Exception {
    start(new Text(), -1);
    assertNull(get("/?type=image/png", "gzip").get(HttpHeader.CONTENT_ENCODING));
    assertNull(get("/?type=application/zip", "gzip").get(HttpHeader.CONTENT_ENCODING));
    assertNull(get("/?type=font/woff2", "gzip").get(HttpHeader.CONTENT_ENCODING));
    assertEquals(
        "gzip", get("/?type=application/octet-stream", "gzip").get(HttpHeader.CONTENT_ENCODING));
    assertEquals("gzip", get("/?type=application/json", "gzip").get(HttpHeader.CONTENT_ENCODING));
  }

  @Test
  void anAppsOwnContentEncodingIsLeftAlone() throws Exception {
    start(new Text(), -1);
    HttpTester.Response response = get("/?encoding=identity-by-app", "gzip");
    assertEquals("identity-by-app", response.get(HttpHeader.CONTENT_ENCODING));
    assertEquals(TEXT, response.getContent());
  }

  @Test
  void gzipRequestBodyReachesTheAppInflated() throws Exception {
    start(new Echo(), -1);
    byte[] compressed = gzip(TEXT.getBytes(StandardCharsets.UTF_8));
    HttpTester.Request request = HttpTester.newRequest();
    request.setMethod("PUT");
    request.setURI("/");
    request.put(HttpHeader.HOST, "localhost");
    request.put(HttpHeader.CONTENT_ENCODING, "gzip");
    request.setContent(compressed);
    HttpTester.Response response = send(request);
    assertEquals(200, response.getStatus());
    assertEquals(String.valueOf(TEXT.length()), response.get("Seen-Length"));
    assertEquals("null", response.get("Seen-Content-Encoding"));
    assertEquals("null", response.get("Seen-Content-Length"));
    assertEquals("gzip", response.get("Seen-X-Content-Encoding"));
    assertEquals(String.valueOf(compressed.length), response.get("Seen-X-Content-Length"));
  }

  @Test
  void theRequestLimitCountsInflatedBytes() throws Exception {
    // 1 MiB of zeros compresses to about 1 KiB: under the limit on the wire, far over it inflated.
    start(new Echo(), 64 * 1024);
    byte[] bomb = gzip(new byte[1024 * 1024]);
    assertTrue(bomb.length < 64 * 1024);
    HttpTester.Request request = HttpTester.newRequest();
    request.setMethod("POST");
    request.setURI("/");
    request.put(HttpHeader.HOST, "localhost");
    request.put(HttpHeader.CONTENT_ENCODING, "gzip");
    request.setContent(bomb);
    HttpTester.Response response = send(request);
    assertEquals(413, response.getStatus());
    // The rest of the compressed body is not read: the connection cannot carry another request.
    assertEquals("close", response.get(HttpHeader.CONNECTION));
  }

  @Test
  void aMalformedGzipBodyIs400() throws Exception {
    start(new Echo(), -1);
    HttpTester.Request request = HttpTester.newRequest();
    request.setMethod("POST");
    request.setURI("/");
    request.put(HttpHeader.HOST, "localhost");
    request.put(HttpHeader.CONTENT_ENCODING, "gzip");
    request.setContent("this is not gzip at all".getBytes(StandardCharsets.UTF_8));
    HttpTester.Response response = send(request);
    assertEquals(400, response.getStatus());
    assertEquals("close", response.get(HttpHeader.CONNECTION));
  }

  @Test
  void otherRequestEncodingsReachTheAppAsSent() throws Exception {
    start(new Echo(), -1);
    HttpTester.Request request = HttpTester.newRequest();
    request.setMethod("POST");
    request.setURI("/");
    request.put(HttpHeader.HOST, "localhost");
    request.put(HttpHeader.CONTENT_ENCODING, "br");
    request.setContent("opaque");
    HttpTester.Response response = send(request);
    assertEquals(200, response.getStatus());
    assertEquals("br", response.get("Seen-Content-Encoding"));
    assertEquals("6", response.get("Seen-Content-Length"));
  }

  @Test
  void headAnswersWithHeadersOnly() throws Exception {
    start(new Text(), -1);
    String head =
        connector.getResponse(
            "HEAD / HTTP/1.1\r\nHost: localhost\r\nAccept-Encoding: gzip\r\n"
                + "Connection: close\r\n\r\n");
    assertTrue(head.startsWith("HTTP/1.1 200 "), head);
    assertTrue(head.endsWith("\r\n\r\n"), head);
  }

  @Test
  void notModifiedMatchesTheCompressedEtag() throws Exception {
    start(new NotModified(), -1);
    HttpTester.Response response =
        HttpTester.parseResponse(
            connector.getResponse(
                "GET / HTTP/1.1\r\nHost: localhost\r\nAccept-Encoding: gzip\r\n"
                    + "If-None-Match: \"v1--gzip\"\r\nConnection: close\r\n\r\n"));
    assertEquals(304, response.getStatus());
    assertEquals("\"v1--gzip\"", response.get(HttpHeader.ETAG));
  }

  /** 304 when the request's If-None-Match is the app's own ETag, as the app sees it. */
  private static final class NotModified extends Handler.Abstract {
    @Override
    public boolean handle(Request request, Response response, Callback callback) {
      if ("\"v1\"".equals(request.getHeaders().get(HttpHeader.IF_NONE_MATCH))) {
        response.setStatus(304);
        response.getHeaders().put(HttpHeader.ETAG, "\"v1\"");
        callback.succeeded();
      } else {
        response.getHeaders().put(HttpHeader.ETAG, "\"v1\"");
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain");
        Content.Sink.write(response, true, TEXT, callback);
      }
      return true;
    }
  }
}
