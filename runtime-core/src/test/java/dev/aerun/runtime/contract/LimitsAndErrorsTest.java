package dev.aerun.runtime.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.ListIterator;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpTester;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;
import org.junit.jupiter.api.Test;

class LimitsAndErrorsTest {
  private static final int SMALL = 1000;
  private static final String SECRET = "secret-internal-detail";

  /**
   * /consume: reads the whole body, then answers its length. /write?n=N[&commitFirst]: writes N
   * bytes, optionally after committing 10. /boom: throws an exception carrying {@link #SECRET}.
   */
  static final class TestApp extends Handler.Abstract {
    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
      String path = Request.getPathInContext(request);
      switch (path) {
        case "/consume" -> {
          Content.Source.asStringAsync(request, StandardCharsets.ISO_8859_1)
              .whenComplete(
                  (body, failure) -> {
                    if (failure != null) {
                      callback.failed(failure);
                    } else {
                      Content.Sink.write(response, true, "read=" + body.length(), callback);
                    }
                  });
          return true;
        }
        case "/write" -> {
          Fields query = Request.extractQueryParameters(request);
          ByteBuffer body = ByteBuffer.wrap(new byte[Integer.parseInt(query.getValue("n"))]);
          if (query.get("commitFirst") != null) {
            response.write(
                false,
                ByteBuffer.wrap(new byte[10]),
                Callback.from(() -> response.write(true, body, callback), callback::failed));
          } else {
            response.write(true, body, callback);
          }
          return true;
        }
        case "/framed" -> {
          // The app tries to frame its own body, by put, by add and with a Content-Length.
          Fields query = Request.extractQueryParameters(request);
          response.getHeaders().put(HttpHeader.TRANSFER_ENCODING, "gzip");
          response.getHeaders().add("Transfer-Encoding", "chunked");
          response.getHeaders().put(HttpHeader.CONTENT_LENGTH, query.getValue("length"));
          response.write(
              true, ByteBuffer.wrap("hello".getBytes(StandardCharsets.US_ASCII)), callback);
          return true;
        }
        case "/walked" -> {
          // The app's fields changed as the servlet layer changes them, through a wrapper of its
          // own whose put walks them, and by hand through their iterator.
          HttpFields.Mutable app = new HttpFields.Mutable.Wrapper(response.getHeaders());
          app.add("X-A", "1").add("X-A", "2").add("X-B", "b").add("X-C", "c").add("X-D", "d");
          app.put("X-A", "3"); // replaces the first, removes the second
          app.put(HttpHeader.TRANSFER_ENCODING, "gzip");
          StringBuilder walk = new StringBuilder();
          ListIterator<HttpField> fields = response.getHeaders().listIterator();
          while (fields.hasNext()) {
            HttpField field = fields.next();
            walk.append(fields.previousIndex()).append('=').append(field.getName()).append(' ');
            switch (field.getName()) {
              case "X-B" -> {
                fields.set(new HttpField(HttpHeader.TRANSFER_ENCODING, "chunked")); // refused
                fields.add(new HttpField(HttpHeader.TRANSFER_ENCODING, "chunked")); // refused
              }
              case "X-C" -> fields.remove();
              default -> {}
            }
          }
          // Backwards: set and add at the cursor after a previous().
          while (fields.hasPrevious()) {
            HttpField field = fields.previous();
            walk.append(fields.nextIndex()).append('<').append(field.getName()).append(' ');
            if (field.getName().equals("X-D")) {
              fields.set(new HttpField("X-D", "dd"));
              fields.add(new HttpField("X-E", "e"));
              walk.append("then ").append(fields.previous().getName()).append(' ');
              break;
            }
          }
          String length = Request.extractQueryParameters(request).getValue("length");
          if (length != null) {
            ListIterator<HttpField> again = response.getHeaders().listIterator();
            again.next();
            again.set(new HttpField(HttpHeader.CONTENT_LENGTH, length)); // over the limit: fails
          }
          response.write(
              true, ByteBuffer.wrap(walk.toString().getBytes(StandardCharsets.US_ASCII)), callback);
          return true;
        }
        case "/backwards" -> {
          // Walks from the end before anything changed: the first change a set after a
          // previous(), then, in a second walk, a removal the fields below refuse (Jetty's Date).
          response.getHeaders().add("X-Y", "y").add("X-Z", "z");
          StringBuilder walk = new StringBuilder();
          for (String change : List.of("X-Z", "Date")) {
            HttpFields.Mutable headers = response.getHeaders();
            ListIterator<HttpField> fields = headers.listIterator(headers.size());
            for (int steps = 0; fields.hasPrevious() && steps < 10; steps++) {
              HttpField field = fields.previous();
              walk.append(field.getName()).append(' ');
              if (field.getName().equals(change)) {
                if (change.equals("Date")) {
                  fields.remove(); // refused below
                } else {
                  fields.set(new HttpField(change, "zz"));
                }
              }
            }
            walk.append("| ");
          }
          response.write(
              true, ByteBuffer.wrap(walk.toString().getBytes(StandardCharsets.US_ASCII)), callback);
          return true;
        }
        case "/boom" -> throw new IllegalStateException(SECRET);
        default -> {
          return false;
        }
      }
    }
  }

  private static InMemoryServer server(RequestLimits limits) throws Exception {
    return new InMemoryServer(
        new ContractOptions(InMemoryServer.TRUST_LOCAL, false), limits, new TestApp());
  }

  private static RequestLimits small() {
    return new RequestLimits(SMALL, SMALL, false, RequestLimits.DEFAULT_REQUEST_HEADER_SIZE);
  }

  @Test
  void bigContentLength_isRejectedWith413BeforeTheAppRuns() throws Exception {
    try (InMemoryServer server = server(RequestLimits.defaults())) {
      HttpTester.Response response =
          HttpTester.parseResponse(
              server.request(
                  "POST /consume HTTP/1.1\r\nHost: a\r\nContent-Length: 33554433\r\n\r\n"));

      assertEquals(413, response.getStatus());
      assertNoDetails(response.getContent());
    }
  }

  @Test
  void contentLengthAtLimit_isAccepted() throws Exception {
    try (InMemoryServer server = server(small())) {
      HttpTester.Response response =
          HttpTester.parseResponse(
              server.request(
                  "POST /consume HTTP/1.1\r\nHost: a\r\nContent-Length: "
                      + SMALL
                      + "\r\nConnection: close\r\n\r\n"
                      + "x".repeat(SMALL)));

      assertEquals(200, response.getStatus());
      assertEquals("read=" + SMALL, response.getContent());
    }
  }

  @Test
  void bigChunkedBody_isRejectedWith413() throws Exception {
    try (InMemoryServer server = server(small())) {
      String chunk = "x".repeat(600);
      String raw =
          "POST /consume HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
              + "258\r\n"
              + chunk
              + "\r\n258\r\n"
              + chunk
              + "\r\n0\r\n\r\n";
      HttpTester.Response response = HttpTester.parseResponse(server.request(raw));

      assertEquals(413, response.getStatus());
      assertNoDetails(response.getContent());
    }
  }

  @Test
  void bigResponseBeforeCommit_becomes500() throws Exception {
    try (InMemoryServer server = server(small())) {
      HttpTester.Response response =
          HttpTester.parseResponse(
              server.request("GET /write?n=" + (SMALL + 1) + " HTTP/1.1\r\nHost: a\r\n\r\n"));

      assertEquals(500, response.getStatus());
      assertNoDetails(response.getContent());
    }
  }

  @Test
  void appsTransferEncoding_isDropped_theServerFramesTheBody() throws Exception {
    try (InMemoryServer server = server(small())) {
      String raw = server.request("GET /framed?length=5 HTTP/1.1\r\nHost: a\r\n\r\n");

      assertTrue(raw.startsWith("HTTP/1.1 200"), raw);
      assertFalse(raw.contains("Transfer-Encoding"), raw);
      assertTrue(raw.contains("Content-Length: 5\r\n"), raw);
      assertTrue(raw.endsWith("\r\n\r\nhello"), raw);
    }
  }

  @Test
  void appsContentLengthOverTheLimit_becomes500() throws Exception {
    try (InMemoryServer server = server(small())) {
      HttpTester.Response response =
          HttpTester.parseResponse(
              server.request("GET /framed?length=" + (SMALL + 1) + " HTTP/1.1\r\nHost: a\r\n\r\n"));

      assertEquals(500, response.getStatus());
      assertNoDetails(response.getContent());
    }
  }

  @Test
  void appsHeaderChanges_throughWrappersAndIterators_keepTheChecks() throws Exception {
    try (InMemoryServer server = server(small())) {
      HttpTester.Response response =
          HttpTester.parseResponse(server.request("GET /walked HTTP/1.1\r\nHost: a\r\n\r\n"));

      assertEquals(200, response.getStatus());
      assertEquals("3", response.get("X-A"));
      assertEquals(1, response.getValuesList("X-A").size());
      assertEquals("b", response.get("X-B"));
      assertFalse(response.contains("X-C"));
      assertEquals("dd", response.get("X-D"));
      assertEquals("e", response.get("X-E"));
      assertFalse(response.contains(HttpHeader.TRANSFER_ENCODING));
      String walk = response.getContent();
      // Jetty's Date first; X-C removed, so X-D comes at its index; backwards from the end, X-E
      // added at the cursor before X-D's old place comes back first.
      assertEquals("0=Date 1=X-A 2=X-B 3=X-C 3=X-D 4<X-D then X-E ", walk);
    }
  }

  @Test
  void appsHeaderChanges_walkingBackwards_keepTheCursor() throws Exception {
    try (InMemoryServer server = server(small())) {
      HttpTester.Response response =
          HttpTester.parseResponse(server.request("GET /backwards HTTP/1.1\r\nHost: a\r\n\r\n"));

      assertEquals(200, response.getStatus());
      assertEquals("zz", response.get("X-Z"));
      assertTrue(response.contains(HttpHeader.DATE));
      // Each field once per walk: a refused removal does not bring the Date back again.
      assertEquals("X-Z X-Y Date | X-Z X-Y Date | ", response.getContent());
    }
  }

  @Test
  void appsContentLengthOverTheLimit_setThroughAnIterator_becomes500() throws Exception {
    try (InMemoryServer server = server(small())) {
      HttpTester.Response response =
          HttpTester.parseResponse(
              server.request("GET /walked?length=" + (SMALL + 1) + " HTTP/1.1\r\nHost: a\r\n\r\n"));

      assertEquals(500, response.getStatus());
      assertNoDetails(response.getContent());
    }
  }

  @Test
  void bigResponseAfterCommit_abortsTheStream() throws Exception {
    try (InMemoryServer server = server(small())) {
      String raw =
          server.request("GET /write?commitFirst&n=" + SMALL + " HTTP/1.1\r\nHost: a\r\n\r\n");

      assertTrue(raw.startsWith("HTTP/1.1 200"), raw);
      assertTrue(raw.contains("Transfer-Encoding: chunked"), raw);
      assertFalse(raw.endsWith("\r\n0\r\n\r\n"), "a complete chunked body: " + raw);
    }
  }

  @Test
  void responseAtLimit_isSentWhole() throws Exception {
    try (InMemoryServer server = server(small())) {
      HttpTester.Response response =
          HttpTester.parseResponse(
              server.request("GET /write?n=" + SMALL + " HTTP/1.1\r\nHost: a\r\n\r\n"));

      assertEquals(200, response.getStatus());
      assertEquals(SMALL, response.getContentBytes().length);
    }
  }

  @Test
  void ignoreResponseSizeLimit_liftsTheResponseLimit() throws Exception {
    try (InMemoryServer server = server(small().withIgnoreResponseSizeLimit(true))) {
      HttpTester.Response response =
          HttpTester.parseResponse(
              server.request("GET /write?n=" + (10 * SMALL) + " HTTP/1.1\r\nHost: a\r\n\r\n"));

      assertEquals(200, response.getStatus());
      assertEquals(10 * SMALL, response.getContentBytes().length);
    }
  }

  @Test
  void hugeHeaderSection_isRejectedWith431() throws Exception {
    try (InMemoryServer server = server(RequestLimits.defaults())) {
      String big = "x".repeat(RequestLimits.DEFAULT_REQUEST_HEADER_SIZE + 1);
      HttpTester.Response response =
          HttpTester.parseResponse(
              server.request("GET /write?n=1 HTTP/1.1\r\nHost: a\r\nX-Big: " + big + "\r\n\r\n"));

      assertEquals(431, response.getStatus());
      assertNoDetails(response.getContent());
    }
  }

  @Test
  void garbageRequestLine_isRejectedWith400() throws Exception {
    try (InMemoryServer server = server(RequestLimits.defaults())) {
      HttpTester.Response response =
          HttpTester.parseResponse(server.request("THIS IS NOT HTTP\r\n\r\n"));

      assertEquals(400, response.getStatus());
      assertNoDetails(response.getContent());
    }
  }

  @Test
  void appException_gives500WithoutMessageOrStack() throws Exception {
    try (InMemoryServer server = server(RequestLimits.defaults())) {
      HttpTester.Response response =
          HttpTester.parseResponse(server.request("GET /boom HTTP/1.1\r\nHost: a\r\n\r\n"));

      assertEquals(500, response.getStatus());
      assertNoDetails(response.getContent());
    }
  }

  @Test
  void appException_jsonErrorBodyHasNoMessage() throws Exception {
    try (InMemoryServer server = server(RequestLimits.defaults())) {
      HttpTester.Response response =
          HttpTester.parseResponse(
              server.request("GET /boom HTTP/1.1\r\nHost: a\r\nAccept: application/json\r\n\r\n"));

      assertEquals(500, response.getStatus());
      assertNoDetails(response.getContent());
    }
  }

  private static void assertNoDetails(String body) {
    String text = body == null ? "" : body;
    assertFalse(text.contains(SECRET), text);
    assertFalse(text.contains("Exception"), text);
    assertFalse(text.contains("at org."), text);
    assertFalse(text.contains("too large:"), text);
    assertFalse(text.contains("Caused by"), text);
  }
}
