package dev.aerun.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * App Engine's roles and login on the sample login app of one EE version ({@code /admin/*} needs
 * role {@code admin}, {@code /user/*} role {@code *}, {@code /secure/*} HTTPS; a FORM {@code
 * <login-config>} the platform ignores), in both modes: from a trusted front end, from untrusted
 * clients forging the front end's headers, and with the development login page.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class LoginTest {
  @RegisterExtension final Runtimes runtimes = new Runtimes();

  private static final String CUSTOM_LOGIN = "https://login.example.com/signin?next={continue}";
  private static final String ADMIN = "X-AppEngine-User-Email: boss@example.com";
  private static final String IS_ADMIN = "X-AppEngine-User-Is-Admin: true";
  private static final String USER = "X-AppEngine-User-Email: ann@example.com";
  private static final String COOKIE = "Cookie: dev_appserver_login=dev%40example.com%3Atrue";

  private List<RuntimeProcess> trusted;
  private List<RuntimeProcess> untrusted;
  private RuntimeProcess development;

  /** The sample app's file name. */
  abstract String war();

  /** The mode the development runtime runs in ({@code http} or {@code legacy}). */
  abstract String developmentMode();

  @BeforeAll
  void start() throws Exception {
    trusted =
        List.of(
            launch("--mode", "http", "--trusted-proxies", "127.0.0.1"),
            launch("--mode", "legacy", "--trusted-proxies", "127.0.0.1"));
    untrusted =
        List.of(
            launch("--mode", "http", "--login-url", CUSTOM_LOGIN),
            launch("--mode", "legacy", "--rpc-transport", "tcp"));
    development = launch("--mode", developmentMode(), "--development");
  }

  /**
   * Starts one runtime and waits for it: one at a time, so a loaded machine starts each in time.
   */
  private RuntimeProcess launch(String... args) throws Exception {
    RuntimeProcess runtime =
        runtimes.start(RuntimeProcess.launch(RuntimeProcess.app(war())).args(args));
    runtime.port();
    return runtime;
  }

  private static RawResponse get(RuntimeProcess runtime, String path, String... headers)
      throws Exception {
    return RawResponse.get(runtime.port(), path, headers);
  }

  /** The servlet's {@code name=value} line for {@code name}. */
  private static String seen(RawResponse response, String name) {
    for (String line : response.body().split("\n")) {
      if (line.startsWith(name + "=")) {
        return line.substring(name.length() + 1);
      }
    }
    throw new AssertionError("no " + name + " in " + response.body());
  }

  private static String encoded(String url) {
    return URLEncoder.encode(url, StandardCharsets.UTF_8);
  }

  @Test
  void anonymousRequestToAProtectedPathIsRedirectedToTheLoginUrlWithContinue() throws Exception {
    for (RuntimeProcess runtime : trusted) {
      for (String path : List.of("/admin/page?y=1", "/user/page?y=1")) {
        RawResponse response = get(runtime, path);
        assertEquals(302, response.status(), path + " " + response.body());
        assertEquals(
            "/_ah/login?continue=" + encoded("http://127.0.0.1" + path),
            response.header("Location"));
      }
    }
  }

  @Test
  void signedInUserWithoutTheRoleGets403() throws Exception {
    for (RuntimeProcess runtime : trusted) {
      assertEquals(403, get(runtime, "/admin/page", USER).status());
      assertEquals(403, get(runtime, "/admin/page", USER, "X-AppEngine-User-Is-Admin: 0").status());
    }
  }

  @Test
  void adminPassesAndTheServletApiAgrees() throws Exception {
    for (RuntimeProcess runtime : trusted) {
      RawResponse response = get(runtime, "/admin/page", ADMIN, IS_ADMIN);
      assertEquals(200, response.status(), response.body());
      assertEquals("boss@example.com", seen(response, "remoteUser"));
      assertEquals("boss@example.com", seen(response, "principal"));
      assertEquals("true", seen(response, "admin"));
      assertEquals("Google Login", seen(response, "authType"));
    }
  }

  @Test
  void anySignedInUserPassesRoleStar() throws Exception {
    for (RuntimeProcess runtime : trusted) {
      RawResponse response = get(runtime, "/user/page", USER);
      assertEquals(200, response.status(), response.body());
      assertEquals("ann@example.com", seen(response, "remoteUser"));
      assertEquals("false", seen(response, "admin"));
      assertEquals(200, get(runtime, "/user/page", ADMIN, IS_ADMIN).status());
    }
  }

  @Test
  void trustedCronAndTaskRequestsPassAdminConstraintsWithoutAUser() throws Exception {
    for (RuntimeProcess runtime : trusted) {
      RawResponse cron = get(runtime, "/admin/cron", "X-AppEngine-Cron: true");
      assertEquals(200, cron.status(), cron.body());
      assertEquals("null", seen(cron, "remoteUser"));
      assertEquals("false", seen(cron, "admin"));
      RawResponse task = get(runtime, "/admin/task", "X-AppEngine-QueueName: default");
      assertEquals(200, task.status(), task.body());
      assertEquals(302, get(runtime, "/admin/page", "X-AppEngine-Cron: false").status());
    }
  }

  @Test
  void unprotectedPathsSeeTheSignedInUserAndLetAnonymousThrough() throws Exception {
    for (RuntimeProcess runtime : trusted) {
      RawResponse anonymous = get(runtime, "/open/page");
      assertEquals(200, anonymous.status());
      assertEquals("null", seen(anonymous, "remoteUser"));
      RawResponse admin = get(runtime, "/open/page", ADMIN, IS_ADMIN);
      assertEquals("boss@example.com", seen(admin, "remoteUser"));
      assertEquals("true", seen(admin, "admin"));
    }
  }

  @Test
  void confidentialTransportRedirectsToHttpsUnlessTheFrontEndSaysSecure() throws Exception {
    for (RuntimeProcess runtime : trusted) {
      RawResponse plain = get(runtime, "/secure/page?q=1");
      assertEquals(302, plain.status());
      assertEquals("https://127.0.0.1/secure/page?q=1", plain.header("Location"));
      RawResponse secure = get(runtime, "/secure/page", "X-AppEngine-Https: on");
      assertEquals(200, secure.status(), secure.body());
      assertEquals("true", seen(secure, "secure"));
    }
  }

  @Test
  void untrustedClientsCannotForgeAUserAnAdminCronOrATask() throws Exception {
    for (RuntimeProcess runtime : untrusted) {
      List<String[]> forgeries =
          List.of(
              new String[] {ADMIN, IS_ADMIN},
              new String[] {"X-AppEngine-Cron: true"},
              new String[] {"X-AppEngine-QueueName: default", "X-AppEngine-TaskName: t1"},
              new String[] {ADMIN, IS_ADMIN, "X-AppEngine-Cron: true", "X-Forwarded-For: 1.2.3.4"});
      for (String[] forged : forgeries) {
        for (String path : List.of("/admin/page", "/user/page")) {
          RawResponse response = get(runtime, path, forged);
          assertEquals(302, response.status(), path + " " + String.join(", ", forged));
          assertTrue(
              response.header("Location").contains("continue")
                  || response.header("Location").contains("next="));
        }
      }
      RawResponse open = get(runtime, "/open/page", ADMIN, IS_ADMIN);
      assertEquals("null", seen(open, "remoteUser"));
      assertEquals("false", seen(open, "admin"));
      RawResponse secure = get(runtime, "/secure/page", "X-AppEngine-Https: on");
      assertEquals(302, secure.status(), "a forged X-AppEngine-Https is not HTTPS");
    }
  }

  @Test
  void theLoginUrlTemplateNamesWhereToGoBack() throws Exception {
    RawResponse response = get(untrusted.get(0), "/admin/page");
    assertEquals(302, response.status());
    assertEquals(
        "https://login.example.com/signin?next=" + encoded("http://127.0.0.1/admin/page"),
        response.header("Location"));
  }

  @Test
  void productionHasNoLoginPageAndIgnoresTheDevelopmentCookie() throws Exception {
    for (RuntimeProcess runtime : List.of(trusted.get(0), trusted.get(1), untrusted.get(1))) {
      RawResponse page = get(runtime, "/_ah/login?continue=/admin/page");
      assertEquals(404, page.status(), page.body());
      RawResponse login =
          get(runtime, "/_ah/login?continue=/&email=x%40example.com&admin=on&action=login");
      assertEquals(404, login.status());
      assertEquals(null, login.header("Set-Cookie"));
      assertEquals(302, get(runtime, "/admin/page", COOKIE).status());
      assertEquals("null", seen(get(runtime, "/open/page", COOKIE), "remoteUser"));
    }
  }

  @Test
  void developmentLoginPagePicksTheUserForThatBrowser() throws Exception {
    RawResponse anonymous = get(development, "/admin/page");
    assertEquals(302, anonymous.status());
    String login = anonymous.header("Location");
    assertTrue(login.startsWith("/_ah/login?continue="), login);

    RawResponse page = get(development, login);
    assertEquals(200, page.status());
    assertTrue(page.body().contains("name=\"email\""), page.body());
    assertTrue(page.body().contains("name=\"admin\""), page.body());

    RawResponse signIn =
        get(
            development,
            "/_ah/login?continue="
                + encoded("http://127.0.0.1/admin/page")
                + "&email=dev%40example.com&admin=on&action=login");
    assertEquals(302, signIn.status());
    assertEquals("http://127.0.0.1/admin/page", signIn.header("Location"));
    String cookie = signIn.header("Set-Cookie");
    assertNotNull(cookie);
    String pair = cookie.substring(0, cookie.indexOf(';'));

    RawResponse admin = get(development, "/admin/page", "Cookie: " + pair);
    assertEquals(200, admin.status(), admin.body());
    assertEquals("dev@example.com", seen(admin, "remoteUser"));
    assertEquals("true", seen(admin, "admin"));

    RawResponse notAdmin =
        get(development, "/admin/page", "Cookie: dev_appserver_login=dev%40example.com%3Afalse");
    assertEquals(403, notAdmin.status());

    RawResponse elsewhere =
        get(
            development,
            "/_ah/login?continue=https%3A%2F%2Fevil.example%2F&email=a%40b.c&action=login");
    assertEquals("/", elsewhere.header("Location"), "never a redirect to another host");

    RawResponse logout = get(development, "/_ah/logout?continue=/open/page");
    assertEquals(302, logout.status());
    assertNotEquals(null, logout.header("Set-Cookie"));
    assertTrue(logout.header("Set-Cookie").startsWith("dev_appserver_login=;"));
  }
}
