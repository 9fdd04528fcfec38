package dev.aerun.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.aerun.testing.RawResponse;
import dev.aerun.testing.RuntimeProcess;
import dev.aerun.testing.Runtimes;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What an app moving from Google's runtime sees, on the sample app of one EE version, in both modes
 * behind a trusted front end: large forms, the signed-in user without a constraint, a welcome file
 * that names a servlet, push tasks and cron jobs on a {@code CONFIDENTIAL} path, and (EE8) the
 * request paths Jetty 9.4 accepted.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AppViewTest {
  @RegisterExtension final Runtimes runtimes = new Runtimes();

  private static final ObjectMapper JSON = new ObjectMapper();

  private final String war;
  private final boolean ee8;
  private List<RuntimeProcess> modes;

  AppViewTest(String war) {
    this.war = war;
    this.ee8 = war.contains("ee8");
  }

  @BeforeAll
  void start() throws Exception {
    modes =
        List.of(
            launch("--mode", "http", "--trusted-proxies", "127.0.0.1"),
            launch("--mode", "legacy", "--trusted-proxies", "127.0.0.1"));
  }

  private RuntimeProcess launch(String... args) throws Exception {
    RuntimeProcess runtime =
        runtimes.start(RuntimeProcess.launch(RuntimeProcess.app(war)).args(args));
    runtime.port();
    return runtime;
  }

  private static RawResponse postForm(RuntimeProcess runtime, String target, String form)
      throws Exception {
    byte[] body = form.getBytes(StandardCharsets.US_ASCII);
    String head =
        "POST "
            + target
            + " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            + "Content-Type: application/x-www-form-urlencoded\r\n"
            + "Content-Length: "
            + body.length
            + "\r\nConnection: close\r\n\r\n";
    byte[] head8 = head.getBytes(StandardCharsets.US_ASCII);
    byte[] request = new byte[head8.length + body.length];
    System.arraycopy(head8, 0, request, 0, head8.length);
    System.arraycopy(body, 0, request, head8.length, body.length);
    return RawResponse.parse(Http.raw(runtime.port(), request));
  }

  private static JsonNode info(RawResponse response) throws Exception {
    return JSON.readTree(response.body());
  }

  private static String sha256(String text) throws Exception {
    return HexFormat.of()
        .formatHex(
            MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
  }

  // ---- Forms up to the request limit (32 MiB), with a bounded number of fields ----

  @Test
  void aLargeFormReachesTheAppsParameters() throws Exception {
    String big = "x".repeat(300 * 1024);
    String sixMib = "y".repeat(6 * 1024 * 1024);
    for (RuntimeProcess runtime : modes) {
      RawResponse response = postForm(runtime, "/form?q=1", "a=" + big + "&b=%C3%A9");
      assertEquals(200, response.status(), response.body());
      assertTrue(response.body().startsWith("parameters=3\n"), response.body());
      assertTrue(
          response.body().contains("a=1 value(s), 307200 bytes, sha256 " + sha256(big)),
          response.body());
      assertTrue(response.body().contains("b=1 value(s), 2 bytes"), response.body());
      RawResponse large = postForm(runtime, "/form", "big=" + sixMib);
      assertEquals(200, large.status());
      assertTrue(large.body().contains("big=1 value(s), 6291456 bytes"), large.body());
    }
  }

  @Test
  void formFieldsStayBounded() throws Exception {
    for (RuntimeProcess runtime : modes) {
      StringBuilder fields = new StringBuilder();
      for (int i = 0; i < 1000; i++) {
        fields.append(i == 0 ? "" : "&").append("k").append(i).append("=v");
      }
      RawResponse thousand = postForm(runtime, "/form", fields.toString());
      assertEquals(200, thousand.status(), thousand.body());
      assertTrue(thousand.body().startsWith("parameters=1000\n"), thousand.body());
      RawResponse tooMany = postForm(runtime, "/form", fields + "&k1000=v");
      assertEquals(400, tooMany.status(), tooMany.body());
    }
  }

  // ---- The signed-in user, with no security constraint on the path ----

  @Test
  void theSignedInUserIsTheAppsPrincipalWithoutAConstraint() throws Exception {
    for (RuntimeProcess runtime : modes) {
      JsonNode user =
          info(
              RawResponse.get(
                  runtime.port(),
                  "/request-info",
                  "X-AppEngine-User-Email: ann@example.com",
                  "X-AppEngine-User-Is-Admin: true"));
      assertEquals("ann@example.com", user.get("userPrincipal").asText());
      assertEquals("ann@example.com", user.get("remoteUser").asText());
      assertEquals("Google Login", user.get("authType").asText());
      assertTrue(user.get("userInRoleAdmin").asBoolean());
      JsonNode anonymous = info(RawResponse.get(runtime.port(), "/request-info"));
      assertTrue(anonymous.get("userPrincipal").isNull(), anonymous.toString());
      assertTrue(anonymous.get("remoteUser").isNull());
    }
  }

  // ---- A welcome file that names a servlet mapping ----

  @Test
  void aWelcomeFileNamingAServletForwardsToIt() throws Exception {
    for (RuntimeProcess runtime : modes) {
      RawResponse welcome = RawResponse.get(runtime.port(), "/welcome/");
      assertEquals(200, welcome.status(), welcome.body());
      JsonNode seen = info(welcome);
      assertEquals("/welcome/greeting", seen.get("servletPath").asText());
      assertTrue(
          seen.get("attributes").toString().contains("forward.request_uri"), seen.toString());
      assertEquals(302, RawResponse.get(runtime.port(), "/welcome").status());
      RawResponse root = RawResponse.get(runtime.port(), "/");
      assertEquals(200, root.status());
      assertTrue(root.body().contains("<html"), "a welcome file that exists still wins");
      assertEquals(403, RawResponse.get(runtime.port(), "/css/").status(), "still no listing");
    }
  }

  // ---- Push tasks and cron jobs on a CONFIDENTIAL path ----

  @Test
  void tasksAndCronRunOnAConfidentialPath_seeingTheirRealScheme() throws Exception {
    for (RuntimeProcess runtime : modes) {
      for (String[] caller :
          List.of(
              new String[] {"X-AppEngine-QueueName: default", "X-AppEngine-TaskName: t1"},
              new String[] {"X-AppEngine-Cron: true", "X-AppEngine-QueueName: __cron"},
              new String[] {"X-Google-Internal-SkipAdminCheck: true"})) {
        RawResponse response = RawResponse.get(runtime.port(), "/confidential/run", caller);
        assertEquals(200, response.status(), String.join(", ", caller) + ": " + response.body());
        JsonNode seen = info(response);
        assertFalse(seen.get("secure").asBoolean());
        assertEquals("http", seen.get("scheme").asText());
        assertFalse(
            seen.get("headers").toString().toLowerCase().contains("x-google-internal"),
            seen.get("headers").toString());
      }
      RawResponse plain = RawResponse.get(runtime.port(), "/confidential/run");
      assertEquals(302, plain.status());
      assertEquals("https://127.0.0.1/confidential/run", plain.header("Location"));
    }
  }

  // ---- EE8: the request paths Jetty 9.4 accepted ----

  @Test
  void ee8TakesThePathsJetty94Took_theOthersRefuseThem() throws Exception {
    String task = "X-AppEngine-QueueName: default";
    for (RuntimeProcess runtime : modes) {
      RawResponse slash = RawResponse.get(runtime.port(), "/confidential/a%2Fb", task);
      RawResponse empty = RawResponse.get(runtime.port(), "/confidential//x//y", task);
      RawResponse percent = RawResponse.get(runtime.port(), "/confidential/100%25", task);
      if (!ee8) {
        assertEquals(400, slash.status());
        assertEquals(400, empty.status());
        assertEquals(400, percent.status());
        continue;
      }
      assertEquals(200, slash.status(), slash.body());
      assertEquals("/confidential/a%2Fb", info(slash).get("uri").asText());
      assertEquals("/a/b", info(slash).get("pathInfo").asText());
      assertEquals(200, empty.status(), empty.body());
      assertEquals("/confidential//x//y", info(empty).get("uri").asText());
      assertEquals(200, percent.status(), percent.body());
      assertEquals("/100%", info(percent).get("pathInfo").asText());
      for (String spelling : List.of("//confidential//x", "/confidential%2Fx", "//confidential/")) {
        RawResponse plain = RawResponse.get(runtime.port(), spelling);
        assertEquals(302, plain.status(), spelling + ": the constraint holds for every spelling");
        assertTrue(plain.header("Location").startsWith("https://"), spelling);
      }
      assertEquals(200, RawResponse.get(runtime.port(), "//css//site.css").status());
    }
  }
}
