package dev.aerun.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.testing.AppCopies;
import dev.aerun.testing.RawResponse;
import dev.aerun.testing.RuntimeProcess;
import dev.aerun.testing.Runtimes;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code <sessions-enabled>} on one EE version: the sample sessions app as built (sessions on), and
 * an exploded copy whose descriptor says {@code false}. Sessions are followed by hand with the
 * {@code JSESSIONID} cookie, as a browser would.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class SessionsTest {
  @RegisterExtension final Runtimes runtimes = new Runtimes();

  private static final String ADVICE = "set <sessions-enabled>true</sessions-enabled> in";
  private RuntimeProcess enabled;
  private RuntimeProcess enabledLegacy;

  /** The app with {@code web.xml} asking for URL session tracking. */
  private RuntimeProcess askingForUrls;

  private RuntimeProcess disabled;

  /** {@code EE8}, {@code EE10} or {@code EE11}. */
  abstract String ee();

  /** The sample app's file name. */
  abstract String war();

  @BeforeAll
  void start(@TempDir Path tmp) throws Exception {
    enabled = runtimes.start(RuntimeProcess.launch(RuntimeProcess.app(war())));
    disabled =
        runtimes.start(
            // Text logs: the test looks for the advice verbatim, which JSON would escape.
            RuntimeProcess.launch(withSessionsDisabled(RuntimeProcess.app(war()), tmp))
                .args("--log-format", "text"));
    enabledLegacy =
        runtimes.start(RuntimeProcess.launch(RuntimeProcess.app(war())).args("--mode", "legacy"));
    askingForUrls =
        runtimes.start(
            RuntimeProcess.launch(
                AppCopies.withEdit(
                    RuntimeProcess.app(war()),
                    tmp.resolve("url-tracking-" + ee()),
                    "WEB-INF/web.xml",
                    "</display-name>",
                    "</display-name><session-config><tracking-mode>URL</tracking-mode>"
                        + "<tracking-mode>COOKIE</tracking-mode></session-config>")));
    enabled.port();
    disabled.port();
    enabledLegacy.port();
    askingForUrls.port();
  }

  /** An exploded copy of {@code war} whose descriptor turns sessions off. */
  private Path withSessionsDisabled(Path war, Path tmp) throws IOException {
    return AppCopies.withDescriptorEdit(
        war,
        tmp.resolve("sessions-disabled-" + ee()),
        "<sessions-enabled>true</sessions-enabled>",
        "<sessions-enabled>false</sessions-enabled>");
  }

  private static String sessionCookie(RawResponse response) {
    for (String line : response.headers()) {
      if (line.toLowerCase().startsWith("set-cookie:") && line.contains("JSESSIONID=")) {
        String value = line.substring(line.indexOf("JSESSIONID="));
        int end = value.indexOf(';');
        return end < 0 ? value : value.substring(0, end);
      }
    }
    return null;
  }

  @Test
  void sessionKeepsStateAcrossRequests() throws Exception {
    RawResponse first = RawResponse.get(enabled.port(), "/counter");
    assertEquals(200, first.status(), first.body());
    assertEquals("visits=1 " + ee(), first.body().trim());
    String cookie = sessionCookie(first);
    assertNotNull(cookie, first.headers().toString());

    RawResponse second = RawResponse.get(enabled.port(), "/counter", "Cookie: " + cookie);
    assertEquals("visits=2 " + ee(), second.body().trim());
    assertNull(sessionCookie(second), "an existing session gets no new cookie");
    RawResponse jsp = RawResponse.get(enabled.port(), "/visits.jsp", "Cookie: " + cookie);
    assertEquals(200, jsp.status(), jsp.body());
    assertTrue(jsp.body().contains("visits=2"), jsp.body());
  }

  @Test
  void sessionsAreSeparatePerClient() throws Exception {
    RawResponse a = RawResponse.get(enabled.port(), "/counter");
    RawResponse b = RawResponse.get(enabled.port(), "/counter");
    assertEquals("visits=1 " + ee(), b.body().trim());
    assertNotEquals(sessionCookie(a), sessionCookie(b));
  }

  @Test
  void peekingDoesNotCreateASession() throws Exception {
    RawResponse peek = RawResponse.get(enabled.port(), "/counter/peek");
    assertEquals("session=none", peek.body().trim());
    assertNull(sessionCookie(peek));
  }

  @Test
  void writesToTheSessionWorkWhenEnabled() throws Exception {
    assertEquals("write=ok", RawResponse.get(enabled.port(), "/counter/try").body().trim());
  }

  @Test
  void disabledSessionWriteFailsWithAdviceToEnableSessions() throws Exception {
    RawResponse response = RawResponse.get(disabled.port(), "/counter/try");
    assertEquals(200, response.status());
    String body = response.body().trim();
    assertTrue(body.startsWith("write="), body);
    assertTrue(body.contains(ADVICE), body);
    assertTrue(body.contains("WEB-INF/appengine-web.xml"), body);
    assertNull(sessionCookie(response), "no session, no cookie");
  }

  @Test
  void disabledSessionFailureIsLoggedButNotShownToTheClient() throws Exception {
    RawResponse response = RawResponse.get(disabled.port(), "/counter");
    assertEquals(500, response.status());
    assertFalse(response.body().contains("sessions-enabled"), response.body());
    assertFalse(response.body().contains("IllegalStateException"), response.body());
    assertFalse(response.body().contains("at dev.aerun"), response.body());
    assertNull(sessionCookie(response));
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (!disabled.output().contains(ADVICE) && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    assertTrue(disabled.output().contains(ADVICE), disabled.output());
  }

  @Test
  void disabledSessionsGiveNoSessionToGetSessionFalse() throws Exception {
    RawResponse peek = RawResponse.get(disabled.port(), "/counter/peek");
    assertEquals("session=none", peek.body().trim());
    RawResponse forged = RawResponse.get(disabled.port(), "/counter/peek", "Cookie: JSESSIONID=x");
    assertEquals("session=none", forged.body().trim());
  }

  @Test
  void jspStillWorksWithSessionsDisabled() throws Exception {
    RawResponse jsp = RawResponse.get(disabled.port(), "/visits.jsp");
    assertEquals(200, jsp.status(), jsp.body());
    assertTrue(jsp.body().contains("visits=0"), jsp.body());
    assertNull(sessionCookie(jsp));
  }

  @Test
  void bodyIsUtf8Text() throws Exception {
    byte[] body = RawResponse.get(enabled.port(), "/counter/peek").bodyBytes();
    assertEquals("session=none", new String(body, StandardCharsets.UTF_8).trim());
  }

  // ---- Sessions are found by their cookie only ----

  @Test
  void aSessionIdInTheUrl_selectsNoSession_inEitherMode() throws Exception {
    for (RuntimeProcess runtime : List.of(enabled, enabledLegacy, askingForUrls)) {
      RawResponse first = RawResponse.get(runtime.port(), "/counter");
      String cookie = sessionCookie(first);
      assertNotNull(cookie, first.headers().toString());
      String id = cookie.substring("JSESSIONID=".length());
      for (String spelling :
          List.of(
              "/counter/peek;jsessionid=" + id,
              "/counter/peek;JSESSIONID=" + id,
              "/counter;jsessionid=" + id + "/peek",
              "/counter/peek;foo=1;jsessionid=" + id)) {
        RawResponse peek = RawResponse.get(runtime.port(), spelling);
        assertEquals(200, peek.status(), spelling);
        assertEquals("session=none", peek.body().trim(), spelling);
      }
      RawResponse counted = RawResponse.get(runtime.port(), "/counter;jsessionid=" + id);
      assertEquals("visits=1 " + ee(), counted.body().trim(), "a new session, not the linked one");
      assertNotNull(sessionCookie(counted), "a new session gets its own cookie");
      assertEquals(
          "visits=2 " + ee(),
          RawResponse.get(runtime.port(), "/counter", "Cookie: " + cookie).body().trim(),
          "the cookie still selects it");
    }
  }

  @Test
  void encodeUrl_writesNoSessionId_inEitherMode() throws Exception {
    for (RuntimeProcess runtime : List.of(enabled, enabledLegacy, askingForUrls)) {
      RawResponse link = RawResponse.get(runtime.port(), "/counter/link");
      assertNotNull(sessionCookie(link));
      assertEquals("url=/counter/peek redirect=/counter/peek", link.body().trim());
      assertFalse(link.body().toLowerCase().contains("jsessionid"), link.body());
    }
  }

  @Test
  void thePathStillReachesTheAppAsSent() throws Exception {
    for (RuntimeProcess runtime : List.of(enabled, enabledLegacy)) {
      RawResponse uri = RawResponse.get(runtime.port(), "/counter/uri;jsessionid=abc");
      assertEquals("uri=/counter/uri;jsessionid=abc", uri.body().trim());
    }
  }
}
