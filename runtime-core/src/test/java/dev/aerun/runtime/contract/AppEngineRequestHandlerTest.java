package dev.aerun.runtime.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.TreeSet;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpTester;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.Test;

class AppEngineRequestHandlerTest {

  /** Echoes what the app sees, one fact a line. */
  static final class EchoWhatAppSees extends Handler.Abstract {
    @Override
    public boolean handle(Request request, Response response, Callback callback) {
      StringBuilder out = new StringBuilder();
      out.append("remote=")
          .append(Request.getRemoteAddr(request))
          .append(':')
          .append(Request.getRemotePort(request))
          .append('\n');
      out.append("secure=").append(request.isSecure()).append('\n');
      out.append("connectionSecure=")
          .append(request.getConnectionMetaData().isSecure())
          .append('\n');
      out.append("scheme=").append(request.getHttpURI().getScheme()).append('\n');
      for (HttpField field : request.getHeaders()) {
        out.append("header ").append(field.getName()).append('=').append(field.getValue());
        out.append('\n');
      }
      for (String name : new TreeSet<>(request.getAttributeNameSet())) {
        out.append("attr ").append(name).append('=').append(request.getAttribute(name));
        out.append('\n');
      }
      response.setStatus(200);
      Content.Sink.write(response, true, out.toString(), callback);
      return true;
    }
  }

  /** Reads the body, then tells the trailers both ways the EE layers read them. */
  static final class EchoTrailers extends Handler.Abstract {
    @Override
    public boolean handle(Request request, Response response, Callback callback) {
      StringBuilder out = new StringBuilder();
      while (true) {
        Content.Chunk chunk = request.read();
        if (chunk == null) {
          try (org.eclipse.jetty.util.Blocker.Runnable more =
              org.eclipse.jetty.util.Blocker.runnable()) {
            request.demand(more);
            more.block();
          } catch (java.io.IOException e) {
            callback.failed(e);
            return true;
          }
          continue;
        }
        if (chunk instanceof org.eclipse.jetty.http.Trailers trailers) {
          for (HttpField field : trailers.getTrailers()) {
            out.append("chunk ").append(field.getName()).append('=').append(field.getValue());
            out.append('\n');
          }
        }
        chunk.release();
        if (chunk.isLast() || Content.Chunk.isFailure(chunk)) {
          break;
        }
      }
      if (request.getTrailers() != null) {
        for (HttpField field : request.getTrailers()) {
          out.append("trailer ").append(field.getName()).append('=').append(field.getValue());
          out.append('\n');
        }
      }
      response.setStatus(200);
      Content.Sink.write(response, true, out.toString(), callback);
      return true;
    }
  }

  private static String postWithTrailers(TrustPolicy policy, boolean allHeaders, String headers)
      throws Exception {
    try (InMemoryServer server =
        new InMemoryServer(
            new ContractOptions(policy, allHeaders),
            RequestLimits.defaults(),
            new EchoTrailers())) {
      String raw =
          server.request(
              "POST /path HTTP/1.1\r\nHost: app.example.com\r\n"
                  + headers
                  + "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                  + "3\r\nabc\r\n0\r\n"
                  + "X-AppEngine-Cron: true\r\n"
                  + "X-AppEngine-User-Email: evil@example.com\r\n"
                  + "X-Forwarded-For: 198.51.100.1\r\n"
                  + "Forwarded: for=198.51.100.1\r\n"
                  + "X-Google-Internal-Skip: 1\r\n"
                  + "X-Checksum: abc123\r\n"
                  + "\r\n");
      HttpTester.Response response = HttpTester.parseResponse(raw);
      assertEquals(200, response.getStatus(), raw);
      return response.getContent();
    }
  }

  @Test
  void trailersFromAnUntrustedPeer_platformFieldsRemoved_othersKept() throws Exception {
    // With and without platform headers in the head: both request wrappers filter trailers.
    for (String head : new String[] {"", "X-AppEngine-Country: US\r\n"}) {
      String seen = postWithTrailers(TrustPolicy.trustNone(), false, head);

      assertEquals("chunk X-Checksum=abc123\ntrailer X-Checksum=abc123\n", seen, head);
    }
  }

  @Test
  void trailersFromATrustedPeer_followTheHeaderRule() throws Exception {
    String seen = postWithTrailers(TrustPolicy.trustAll(), false, "");

    // Visible platform fields stay; private ones are hidden as in the head.
    assertTrue(seen.contains("trailer X-AppEngine-Cron=true\n"), seen);
    assertTrue(seen.contains("trailer X-Forwarded-For=198.51.100.1\n"), seen);
    assertTrue(seen.contains("trailer X-Checksum=abc123\n"), seen);
    assertFalse(seen.contains("User-Email"), seen);
    assertFalse(seen.contains("X-Google-Internal"), seen);
    assertTrue(seen.contains("chunk X-AppEngine-Cron=true\n"), seen);
    assertFalse(seen.contains("chunk X-AppEngine-User-Email"), seen);
  }

  @Test
  void trailersWithAllHeaders_privateFieldsVisibleFromATrustedPeerOnly() throws Exception {
    assertTrue(
        postWithTrailers(TrustPolicy.trustAll(), true, "")
            .contains("trailer X-AppEngine-User-Email=evil@example.com\n"));
    assertFalse(
        postWithTrailers(TrustPolicy.trustNone(), true, "").contains("X-AppEngine-User-Email"));
  }

  private static HttpTester.Response get(TrustPolicy policy, boolean allHeaders, String headers)
      throws Exception {
    try (InMemoryServer server =
        new InMemoryServer(
            new ContractOptions(policy, allHeaders),
            RequestLimits.defaults(),
            new EchoWhatAppSees())) {
      String raw =
          server.request(
              "GET /path?q=1 HTTP/1.1\r\nHost: app.example.com\r\n"
                  + headers
                  + "Connection: close\r\n\r\n");
      return HttpTester.parseResponse(raw);
    }
  }

  @Test
  void trustedPeer_userIpIsTheRemoteAddressAppSees() throws Exception {
    String body =
        get(InMemoryServer.TRUST_LOCAL, false, "X-AppEngine-User-IP: 198.51.100.7\r\n")
            .getContent();

    assertTrue(body.contains("remote=198.51.100.7:0\n"), body);
    assertFalse(body.contains("X-AppEngine-User-IP"), body);
  }

  @Test
  void trustedPeer_httpsOnMakesRequestSecureWithHttpsScheme() throws Exception {
    String body = get(InMemoryServer.TRUST_LOCAL, false, "X-AppEngine-Https: on\r\n").getContent();

    assertTrue(body.contains("secure=true\n"), body);
    assertTrue(body.contains("connectionSecure=true\n"), body);
    assertTrue(body.contains("scheme=https\n"), body);
  }

  @Test
  void untrustedPeer_forgedCronHeaderIsRemoved() throws Exception {
    String body = get(InMemoryServer.TRUST_OTHERS, true, "X-AppEngine-Cron: true\r\n").getContent();

    assertFalse(body.toLowerCase().contains("cron"), body);
  }

  @Test
  void untrustedPeer_forgedUserEmailIsRemoved() throws Exception {
    String body =
        get(InMemoryServer.TRUST_OTHERS, false, "X-AppEngine-User-Email: boss@example.com\r\n")
            .getContent();

    assertFalse(body.contains("boss@example.com"), body);
  }

  @Test
  void untrustedPeer_seesTcpPeerAndPlainScheme() throws Exception {
    String body =
        get(
                InMemoryServer.TRUST_OTHERS,
                false,
                "X-AppEngine-User-IP: 198.51.100.7\r\nX-AppEngine-Https: on\r\n")
            .getContent();

    assertTrue(body.contains("remote=0.0.0.0:0\n"), body);
    assertTrue(body.contains("secure=false\n"), body);
    assertTrue(body.contains("scheme=http\n"), body);
  }

  @Test
  void trustedPeer_cronHeaderStaysVisibleAndSetsAttribute() throws Exception {
    String body = get(InMemoryServer.TRUST_LOCAL, false, "X-AppEngine-Cron: true\r\n").getContent();

    assertTrue(body.contains("header X-AppEngine-Cron=true\n"), body);
    assertTrue(body.contains("attr " + RequestAttributes.CRON + "=true\n"), body);
  }

  @Test
  void trustedPeer_allHeadersKeepsPrivateHeaderVisible() throws Exception {
    String body =
        get(InMemoryServer.TRUST_LOCAL, true, "X-AppEngine-Request-Log-Id: log1\r\n").getContent();

    assertTrue(body.contains("header X-AppEngine-Request-Log-Id=log1\n"), body);
    assertTrue(body.contains("attr " + RequestAttributes.REQUEST_LOG_ID + "=log1\n"), body);
  }

  @Test
  void trustedPeer_platformValuesBecomeAttributes() throws Exception {
    String body =
        get(
                InMemoryServer.TRUST_LOCAL,
                false,
                "X-AppEngine-Request-Log-Id: log1\r\n"
                    + "X-AppEngine-Default-Version-Hostname: app.example.com\r\n"
                    + "X-AppEngine-Timeout-Ms: 60000\r\n"
                    + "X-AppEngine-User-Email: ada@example.com\r\n"
                    + "X-AppEngine-User-Is-Admin: 1\r\n"
                    + "X-AppEngine-QueueName: default\r\n"
                    + "X-AppEngine-TaskName: t1\r\n"
                    + "X-AppEngine-TaskRetryCount: 2\r\n"
                    + "X-Cloud-Trace-Context: 105445aa7843bc8bf206b12000100000/1;o=1\r\n")
            .getContent();

    assertTrue(body.contains("attr " + RequestAttributes.REQUEST_LOG_ID + "=log1\n"), body);
    assertTrue(
        body.contains("attr " + RequestAttributes.DEFAULT_VERSION_HOSTNAME + "=app.example.com"),
        body);
    assertTrue(body.contains("attr " + RequestAttributes.TIMEOUT_MILLIS + "=60000\n"), body);
    assertTrue(body.contains("attr " + RequestAttributes.DEADLINE_NANOS + "="), body);
    assertTrue(body.contains("attr " + RequestAttributes.USER_EMAIL + "=ada@example.com"), body);
    assertTrue(body.contains("attr " + RequestAttributes.USER_IS_ADMIN + "=true\n"), body);
    assertTrue(body.contains("attr " + RequestAttributes.QUEUE_NAME + "=default\n"), body);
    assertTrue(body.contains("attr " + RequestAttributes.TASK_NAME + "=t1\n"), body);
    assertTrue(body.contains("attr " + RequestAttributes.TASK_RETRY_COUNT + "=2\n"), body);
    assertTrue(
        body.contains("attr " + RequestAttributes.TRACE_ID + "=105445aa7843bc8bf206b12000100000"),
        body);
    assertTrue(body.contains("attr " + RequestAttributes.SPAN_ID + "=0000000000000001\n"), body);
    assertTrue(body.contains("attr " + RequestAttributes.TRACE_SAMPLED + "=true\n"), body);
    assertFalse(body.contains("header X-AppEngine-User-Email"), body);
  }

  @Test
  void noPlatformHeaders_requestPassesThroughUnchanged() throws Exception {
    String body = get(InMemoryServer.TRUST_LOCAL, false, "X-Custom: 1\r\n").getContent();

    assertTrue(body.contains("header X-Custom=1\n"), body);
    assertTrue(body.contains("remote=0.0.0.0:0\n"), body);
    assertFalse(body.contains("attr "), body);
  }

  @Test
  void headerNamesAreMatchedCaseInsensitively() throws Exception {
    String body =
        get(
                InMemoryServer.TRUST_OTHERS,
                false,
                "x-appengine-cron: true\r\nX-APPENGINE-USER-EMAIL: a@b\r\n")
            .getContent();

    assertFalse(body.toLowerCase().contains("x-appengine"), body);
  }

  @Test
  void plainRequest_isAnswered200() throws Exception {
    assertEquals(200, get(InMemoryServer.TRUST_LOCAL, false, "").getStatus());
  }
}
