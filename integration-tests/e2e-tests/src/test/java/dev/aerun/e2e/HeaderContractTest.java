package dev.aerun.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aerun.testing.RuntimeProcess;
import dev.aerun.testing.Runtimes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The platform headers of the request contract (docs/REQUESTS.md) as the app sees them, from an
 * untrusted client (the default off the platform), from a trusted front end, and with {@code
 * appengine.use.allheaders}. One subclass per EE version: each EE's servlet request must show the
 * same thing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class HeaderContractTest {
  @RegisterExtension final Runtimes runtimes = new Runtimes();

  private static final String[] PLATFORM_HEADERS = {
    "X-AppEngine-User-IP", "203.0.113.7",
    "X-AppEngine-Https", "on",
    "X-AppEngine-Timeout-Ms", "30000",
    "X-AppEngine-Request-Log-Id", "log-123",
    "X-AppEngine-Default-Version-Hostname", "demo.example.com",
    "X-AppEngine-User-Email", "admin@example.com",
    "X-AppEngine-User-Id", "42",
    "X-AppEngine-User-Is-Admin", "1",
    "X-AppEngine-Cron", "true",
    "X-AppEngine-QueueName", "__cron",
    "X-AppEngine-Api-Ticket", "secret-ticket",
    "X-Google-Internal-Thing", "internal",
    "X-Forwarded-For", "198.51.100.1",
    "X-Cloud-Trace-Context", "105445aa7843bc8bf206b12000100000/1;o=1",
    "X-Custom", "kept",
  };

  private final String war;
  private RuntimeProcess untrusted;
  private RuntimeProcess trusted;
  private RuntimeProcess allHeaders;

  HeaderContractTest(String war) {
    this.war = war;
  }

  @BeforeAll
  void start() throws Exception {
    untrusted = runtimes.start(RuntimeProcess.launch(RuntimeProcess.app(war)));
    trusted =
        runtimes.start(
            RuntimeProcess.launch(RuntimeProcess.app(war)).args("--trusted-proxies", "127.0.0.1"));
    allHeaders =
        runtimes.start(
            RuntimeProcess.launch(RuntimeProcess.app(war))
                .args("--trusted-proxies", "127.0.0.0/8")
                .property("appengine.use.allheaders", "true"));
  }

  private static JsonNode seen(RuntimeProcess runtime) throws Exception {
    return Http.requestInfo(runtime.uri("/request-info"), PLATFORM_HEADERS);
  }

  private static boolean hasHeader(JsonNode info, String name) {
    JsonNode headers = info.get("headers");
    for (var it = headers.fieldNames(); it.hasNext(); ) {
      if (it.next().equalsIgnoreCase(name)) {
        return true;
      }
    }
    return false;
  }

  private static String attribute(JsonNode info, String name) {
    JsonNode value = info.get("attributes").get(name);
    return value == null ? null : value.asText();
  }

  @Test
  void untrustedClient_forgedCronAndUserHeadersAreInvisible() throws Exception {
    JsonNode info = seen(untrusted);
    assertFalse(hasHeader(info, "X-AppEngine-Cron"), info.toString());
    assertFalse(hasHeader(info, "X-AppEngine-User-Email"), info.toString());
    assertFalse(hasHeader(info, "X-AppEngine-QueueName"), info.toString());
    assertNull(attribute(info, "com.google.appengine.user.email"), info.toString());
    assertNull(attribute(info, "com.google.appengine.request.cron"), info.toString());
  }

  @Test
  void untrustedClient_cannotChangeAddressOrScheme() throws Exception {
    JsonNode info = seen(untrusted);
    assertEquals("127.0.0.1", info.get("remoteAddr").asText());
    assertFalse(info.get("secure").asBoolean());
    assertEquals("http", info.get("scheme").asText());
  }

  @Test
  void untrustedClient_privateAndForwardedHeadersAreRemoved() throws Exception {
    JsonNode info = seen(untrusted);
    for (String name :
        new String[] {
          "X-AppEngine-User-IP", "X-AppEngine-Https", "X-AppEngine-Api-Ticket",
          "X-Google-Internal-Thing", "X-Forwarded-For", "X-AppEngine-Timeout-Ms"
        }) {
      assertFalse(hasHeader(info, name), name + " in " + info);
    }
    assertTrue(hasHeader(info, "X-Custom"), info.toString());
    assertTrue(hasHeader(info, "X-Cloud-Trace-Context"), info.toString());
  }

  @Test
  void trustedFrontEnd_userIpBecomesTheRemoteAddress() throws Exception {
    JsonNode info = seen(trusted);
    assertEquals("203.0.113.7", info.get("remoteAddr").asText());
    assertEquals(0, info.get("remotePort").asInt());
  }

  @Test
  void trustedFrontEnd_httpsMakesTheRequestSecure() throws Exception {
    JsonNode info = seen(trusted);
    assertTrue(info.get("secure").asBoolean(), info.toString());
    assertEquals("https", info.get("scheme").asText());
  }

  @Test
  void trustedFrontEnd_privateHeadersAreConsumedAndHidden() throws Exception {
    JsonNode info = seen(trusted);
    for (String name :
        new String[] {
          "X-AppEngine-User-IP", "X-AppEngine-Https", "X-AppEngine-Api-Ticket",
          "X-AppEngine-Timeout-Ms", "X-AppEngine-Request-Log-Id", "X-Google-Internal-Thing",
          "X-AppEngine-Default-Version-Hostname"
        }) {
      assertFalse(hasHeader(info, name), name + " in " + info);
    }
  }

  @Test
  void trustedFrontEnd_taskCronUserAndForwardedHeadersStayVisible() throws Exception {
    JsonNode info = seen(trusted);
    assertTrue(hasHeader(info, "X-AppEngine-Cron"), info.toString());
    assertTrue(hasHeader(info, "X-AppEngine-QueueName"), info.toString());
    assertTrue(hasHeader(info, "X-Forwarded-For"), info.toString());
  }

  @Test
  void trustedFrontEnd_environmentAttributes() throws Exception {
    JsonNode info = seen(trusted);
    assertEquals("log-123", attribute(info, "com.google.appengine.request.log_id"));
    assertEquals("admin@example.com", attribute(info, "com.google.appengine.user.email"));
    assertEquals("true", attribute(info, "com.google.appengine.user.is_admin"));
    assertEquals("true", attribute(info, "com.google.appengine.request.cron"));
    assertEquals("__cron", attribute(info, "com.google.appengine.task.queue_name"));
    assertEquals("30000", attribute(info, "com.google.appengine.request.timeout_millis"));
    assertEquals(
        "105445aa7843bc8bf206b12000100000",
        attribute(info, "com.google.appengine.request.trace_id"));
  }

  @Test
  void allHeaders_privateHeadersStayVisibleToATrustedFrontEnd() throws Exception {
    JsonNode info = seen(allHeaders);
    assertTrue(hasHeader(info, "X-AppEngine-User-IP"), info.toString());
    assertTrue(hasHeader(info, "X-AppEngine-Api-Ticket"), info.toString());
    assertEquals("203.0.113.7", info.get("remoteAddr").asText());
  }

  @Test
  void traceparentIsUnderstood() throws Exception {
    JsonNode info =
        Http.requestInfo(
            trusted.uri("/request-info"),
            "traceparent",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
    assertEquals(
        "4bf92f3577b34da6a3ce929d0e0e4736",
        attribute(info, "com.google.appengine.request.trace_id"));
  }
}
