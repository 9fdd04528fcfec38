package dev.aerun.rpc.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import dev.aerun.rpc.proto.UPRequest;
import dev.aerun.rpc.proto.UPResponse;
import dev.aerun.runtime.contract.RequestLimits;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpTester;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A real EE10 servlet, served in HttpConnector mode's request path and behind the RPC connector:
 * for the same request, what the servlet sees (it prints it) and what the client gets must match.
 */
public class ServletParityTest {
  private static final int SMALL = 100_000;

  private HttpConnectorModeTwin twin;
  private InProcessRuntime rpc;

  /** What the app's body read threw, per request, in order: {@code /read-failure} adds to it. */
  static final List<String> READ_FAILURES = Collections.synchronizedList(new ArrayList<>());

  /**
   * Prints what it sees of the request; {@code ?size=N} streams N more bytes; /boom throws;
   * /read-failure reads the body and notes what the read threw.
   */
  public static final class InfoServlet extends HttpServlet {
    public InfoServlet() {}

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response)
        throws ServletException, IOException {
      if (request.getRequestURI().endsWith("/boom")) {
        throw new ServletException(TestApp.SECRET);
      }
      if (request.getRequestURI().endsWith("/framing")) {
        // An app that frames its response itself.
        String te = request.getParameter("te");
        response.setHeader("Transfer-Encoding", te == null ? "chunked" : te);
        if (request.getParameter("after") != null) {
          response.setContentLength(5);
          response.setHeader("Transfer-Encoding", te == null ? "chunked" : te);
        } else {
          response.setContentLength(5);
        }
        response.getOutputStream().write("hello".getBytes(StandardCharsets.US_ASCII));
        return;
      }
      if (request.getRequestURI().endsWith("/read-failure")) {
        try {
          request.getInputStream().readAllBytes();
          READ_FAILURES.add("none");
        } catch (IOException | RuntimeException e) {
          READ_FAILURES.add((e instanceof IOException ? "IOException " : "unchecked ") + e);
          throw e;
        }
        return;
      }
      byte[] body = request.getInputStream().readAllBytes();
      response.setContentType("text/plain;charset=utf-8");
      response.addHeader("X-Seen", "1");
      PrintWriter out = response.getWriter();
      out.println(
          request.getMethod() + " " + request.getRequestURL() + " ? " + request.getQueryString());
      out.println("protocol=" + request.getProtocol() + " scheme=" + request.getScheme());
      out.println("secure=" + request.isSecure());
      out.println("remote=" + request.getRemoteAddr() + ":" + request.getRemotePort());
      out.println("remoteHost=" + request.getRemoteHost());
      out.println("server=" + request.getServerName() + ":" + request.getServerPort());
      out.println("local=" + request.getLocalAddr() + ":" + request.getLocalPort());
      out.println("contentLength=" + request.getContentLengthLong() + " read=" + body.length);
      for (String name : Collections.list(request.getHeaderNames())) {
        out.println("header " + name + "=" + Collections.list(request.getHeaders(name)));
      }
      List<String> attributes = new ArrayList<>();
      for (String name : Collections.list(request.getAttributeNames())) {
        if (name.startsWith("com.google.")) {
          Object value = request.getAttribute(name);
          attributes.add(
              name
                  + "="
                  + (name.endsWith("deadline_nanos") ? "" : value)
                  + ":"
                  + value.getClass().getSimpleName());
        }
      }
      Collections.sort(attributes);
      out.println("attributes " + attributes);
      String size = request.getParameter("size");
      if (size != null) {
        char[] chunk = new char[1000];
        java.util.Arrays.fill(chunk, 'x');
        for (int i = 0; i < Integer.parseInt(size) / chunk.length; i++) {
          out.write(chunk);
        }
      }
    }
  }

  private static ServletContextHandler context() {
    ServletContextHandler context = new ServletContextHandler("/app");
    context.addServlet(InfoServlet.class, "/*");
    return context;
  }

  private static RequestLimits limits() {
    return new RequestLimits(SMALL, SMALL, false, RequestLimits.DEFAULT_REQUEST_HEADER_SIZE);
  }

  @BeforeEach
  void setUp() throws Exception {
    twin = new HttpConnectorModeTwin(context(), limits());
    rpc = new InProcessRuntime(context(), limits());
  }

  @AfterEach
  void tearDown() throws Exception {
    rpc.close();
    twin.close();
  }

  /** Sends the same request both ways; asserts the client gets the same; returns the answer. */
  private UPResponse assertSameBothWays(
      String method, String pathQuery, List<String[]> headers, byte[] body) throws Exception {
    StringBuilder raw = new StringBuilder(method + " " + pathQuery + " HTTP/1.1\r\n");
    HttpFields.Mutable received = HttpFields.build();
    for (String[] header : headers) {
      raw.append(header[0]).append(": ").append(header[1]).append("\r\n");
      received.add(header[0], header[1]);
    }
    raw.append("\r\n");
    String request = raw + new String(body, StandardCharsets.ISO_8859_1);
    HttpTester.Response http = twin.request(request);

    InetSocketAddress zero = new InetSocketAddress("0.0.0.0", 0);
    UPRequest up = HttpConnectorModeTwin.upRequest(method, pathQuery, received, body, zero, zero);
    UPResponse answer = rpc.call(up);

    assertEquals(UPResponse.Error.OK, answer.getError());
    assertEquals(http.getStatus(), answer.getHttpStatus());
    List<String> expected = new ArrayList<>();
    boolean chunked = false;
    for (HttpField field : http) {
      switch (field.getName()) {
        case "Date" -> expected.add("Date: <date>");
        case "Transfer-Encoding" -> chunked = true;
        default -> expected.add(field.getName() + ": " + field.getValue());
      }
    }
    List<String> actual = new ArrayList<>();
    answer
        .getHeadersList()
        .forEach(
            h ->
                actual.add(
                    h.getName() + ": " + (h.getName().equals("Date") ? "<date>" : h.getValue())));
    assertEquals(expected, actual);
    assertEquals(chunked, answer.getChunked());
    assertEquals(http.getContent(), answer.getBody().toString(StandardCharsets.ISO_8859_1));
    return answer;
  }

  private static List<String[]> headers(String... namesAndValues) {
    List<String[]> list = new ArrayList<>();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      list.add(new String[] {namesAndValues[i], namesAndValues[i + 1]});
    }
    return list;
  }

  @Test
  void servlet_seesTheSameRequestFromATrustedFrontEnd() throws Exception {
    UPResponse answer =
        assertSameBothWays(
            "GET",
            "/app/info?a=1&b=%20x",
            headers(
                "Host", "example.com:8081",
                "X-AppEngine-User-IP", "198.51.100.9",
                "X-AppEngine-Https", "on",
                "Accept", "text/plain",
                "Accept", "*/*",
                "traceparent", "00-0123456789abcdef0123456789abcdef-0123456789abcdef-01",
                "X-AppEngine-User-Email", "u@example.com",
                "X-AppEngine-TaskRetryCount", "4",
                "X-AppEngine-Timeout-Ms", "30000"),
            new byte[0]);

    String page = answer.getBody().toStringUtf8();
    assertTrue(page.contains("remote=198.51.100.9:0"), page);
    assertTrue(page.contains("secure=true"), page);
    assertTrue(page.contains("GET https://example.com:8081/app/info"), page);
    assertTrue(page.contains("com.google.appengine.task.retry_count=4:Integer"), page);
  }

  @Test
  void servlet_postBodyIsReadTheSame() throws Exception {
    byte[] body = "x".repeat(50_000).getBytes(StandardCharsets.ISO_8859_1);
    UPResponse answer =
        assertSameBothWays(
            "POST",
            "/app/post",
            headers("Host", "example.com", "Content-Length", Integer.toString(body.length)),
            body);

    assertTrue(answer.getBody().toStringUtf8().contains("read=50000"));
  }

  @Test
  void servlet_smallResponseHasContentLength() throws Exception {
    UPResponse answer =
        assertSameBothWays("GET", "/app/small", headers("Host", "example.com"), new byte[0]);

    assertFalse(answer.getChunked());
  }

  @Test
  void servlet_responseOverTheBufferIsChunked() throws Exception {
    UPResponse answer =
        assertSameBothWays(
            "GET", "/app/big?size=64000", headers("Host", "example.com"), new byte[0]);

    assertTrue(answer.getChunked());
  }

  @Test
  void servlet_exceptionGivesTheSameErrorPage() throws Exception {
    UPResponse answer =
        assertSameBothWays("GET", "/app/boom", headers("Host", "example.com"), new byte[0]);

    assertEquals(500, answer.getHttpStatus());
    assertFalse(answer.getBody().toStringUtf8().contains(TestApp.SECRET));
  }

  @Test
  void servlet_overflowAfterCommitIsResponseTooLarge() throws Exception {
    UPRequest up = InProcessRuntime.get("/app/big?size=" + (2 * SMALL)).build();

    UPResponse answer = rpc.call(up);

    assertEquals(UPResponse.Error.RESPONSE_TOO_LARGE, answer.getError());
    assertEquals(500, answer.getHttpStatus());
    assertTrue(answer.getBody().isEmpty());
  }

  @Test
  void servlet_bodyOverLimitFailsTheReadTheSame() throws Exception {
    byte[] body = new byte[SMALL];
    UPRequest.Builder up = InProcessRuntime.get("/app/post");
    up.getRequestBuilder()
        .setMethod("POST")
        .addHeaders(InProcessRuntime.header("Transfer-Encoding", "chunked"))
        .setChunked(true)
        .setBodyOverLimit(true)
        .setBody(ByteString.copyFrom(body));

    String chunk = "a".repeat(SMALL + 10);
    HttpTester.Response http =
        twin.request(
            "POST /app/post HTTP/1.1\r\nHost: example.com\r\nTransfer-Encoding: chunked\r\n\r\n"
                + Integer.toHexString(chunk.length())
                + "\r\n"
                + chunk
                + "\r\n0\r\n\r\n");
    UPResponse answer = rpc.call(up.build());

    assertEquals(http.getStatus(), answer.getHttpStatus());
    assertEquals(413, answer.getHttpStatus());
    assertArrayEquals(http.getContentBytes(), answer.getBody().toByteArray());
  }

  @Test
  void servlet_malformedBodyFailsTheReadWithAnIOExceptionBothWays() throws Exception {
    READ_FAILURES.clear();
    HttpTester.Response http =
        twin.request(
            "POST /app/read-failure HTTP/1.1\r\nHost: example.com\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n5\r\nabcde\r\nzz\r\nmore");
    UPRequest.Builder up = InProcessRuntime.get("/app/read-failure");
    up.getRequestBuilder()
        .setMethod("POST")
        .addHeaders(InProcessRuntime.header("Transfer-Encoding", "chunked"))
        .setChunked(true)
        .setBodyErrorStatus(400)
        .setBody(ByteString.copyFromUtf8("abcde"));
    UPResponse answer = rpc.call(up.build());

    assertEquals(2, READ_FAILURES.size(), READ_FAILURES.toString());
    // The servlet API's contract: a body that cannot be read fails with an IOException.
    assertTrue(READ_FAILURES.get(0).startsWith("IOException "), READ_FAILURES.toString());
    assertTrue(READ_FAILURES.get(1).startsWith("IOException "), READ_FAILURES.toString());
    assertEquals(400, http.getStatus());
    assertEquals(http.getStatus(), answer.getHttpStatus());
    assertArrayEquals(http.getContentBytes(), answer.getBody().toByteArray());
  }

  @Test
  void servlet_appSetTransferEncoding_isDropped_theServerFramesTheBody() throws Exception {
    // Before, HttpConnector mode sent "Transfer-Encoding: gzip" beside "Content-Length: 5": a
    // response no client can frame.
    for (String query : new String[] {"", "?te=gzip", "?te=gzip&after=1", "?te=identity"}) {
      UPResponse answer =
          assertSameBothWays(
              "GET", "/app/framing" + query, headers("Host", "example.com"), new byte[0]);

      assertEquals("hello", answer.getBody().toStringUtf8(), query);
      assertFalse(answer.getChunked(), query);
      assertTrue(
          answer.getHeadersList().stream().noneMatch(h -> h.getName().equals("Transfer-Encoding")),
          query);
    }
  }
}
