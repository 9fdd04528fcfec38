package dev.aerun.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.testing.RawResponse;
import dev.aerun.testing.RuntimeProcess;
import dev.aerun.testing.Runtimes;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * App Engine's roles and login on the sample login app of one EE version ({@code /admin/*} needs
 * role {@code admin}, {@code /user/*} role {@code *}, {@code /secure/*} HTTPS, {@code /methods/*}
 * and {@code /omitted/*} role {@code admin} with method lists; a FORM {@code <login-config>} the
 * platform ignores; every file static, protected ones too), in both modes: from a trusted front
 * end, from untrusted clients forging the front end's headers, and in development, with its login
 * page, from this machine and from elsewhere.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class LoginTest {
  @RegisterExtension final Runtimes runtimes = new Runtimes();

  private static final String CUSTOM_LOGIN = "https://login.example.com/signin?next={continue}";
  private static final String ADMIN = "X-AppEngine-User-Email: boss@example.com";
  private static final String IS_ADMIN = "X-AppEngine-User-Is-Admin: true";
  private static final String USER = "X-AppEngine-User-Email: ann@example.com";
  private static final String COOKIE = "Cookie: dev_appserver_login=dev%40example.com%3Atrue";

  /** A name the development runtimes take for this machine ({@code --dev-hosts}). */
  private static final String DEV_HOST = "devbox.test";

  private List<RuntimeProcess> trusted;
  private List<RuntimeProcess> untrusted;

  /** Trusting this machine for the forwarding headers only ({@code --forwarded-from}). */
  private List<RuntimeProcess> forwarding;

  /** Both modes, listening on every address, so that other machines reach them. */
  private List<RuntimeProcess> development;

  /** The sample app's file name. */
  abstract String war();

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
    forwarding =
        List.of(
            launch("--mode", "http", "--forwarded-from", "127.0.0.1"),
            launch("--mode", "legacy", "--forwarded-from", "127.0.0.1"));
    development =
        List.of(
            launch(
                "--mode", "http", "--development", "--address", "0.0.0.0", "--dev-hosts", DEV_HOST),
            launch(
                "--mode",
                "legacy",
                "--development",
                "--address",
                "0.0.0.0",
                "--dev-hosts",
                DEV_HOST));
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

  // ---- Behind a TLS-terminating front end trusted for forwarding headers only ----

  private static final String FORWARDED_HTTPS = "X-Forwarded-Proto: https";
  private static final String FORWARDED_CLIENT = "X-Forwarded-For: 192.0.2.99, 198.51.100.7";

  @Test
  void forwardingProxy_confidentialPathAnswers_asHttpsToTheForwardedClient() throws Exception {
    for (RuntimeProcess runtime : forwarding) {
      RawResponse response = get(runtime, "/secure/page?q=1", FORWARDED_HTTPS, FORWARDED_CLIENT);
      assertEquals(200, response.status(), response.body());
      assertEquals("true", seen(response, "secure"));
      assertEquals("https", seen(response, "scheme"));
      assertEquals("https://127.0.0.1/secure/page", seen(response, "url"));
      assertEquals("198.51.100.7", seen(response, "remoteAddr"));
      // RFC 7239's header alone does the same.
      RawResponse rfc =
          get(runtime, "/secure/page", "Forwarded: for=\"[2001:db8::7]:4711\";proto=https");
      assertEquals(200, rfc.status(), rfc.body());
      assertTrue(seen(rfc, "remoteAddr").contains("2001:db8:0:0:0:0:0:7"), rfc.body());
      // Without the header the request is plain HTTP, as it arrived.
      RawResponse plain = get(runtime, "/secure/page?q=1", FORWARDED_CLIENT);
      assertEquals(302, plain.status());
      assertEquals("https://127.0.0.1/secure/page?q=1", plain.header("Location"));
    }
  }

  @Test
  void forwardingProxy_passesAClientsAppEngineHeadersOn_andTheyAreStillIgnored() throws Exception {
    for (RuntimeProcess runtime : forwarding) {
      RawResponse response =
          get(
              runtime,
              "/secure/page",
              FORWARDED_HTTPS,
              FORWARDED_CLIENT,
              ADMIN,
              IS_ADMIN,
              "X-AppEngine-QueueName: default",
              "X-Google-Internal-SkipAdminCheck: true");
      assertEquals(200, response.status(), response.body());
      assertEquals("null", seen(response, "remoteUser"));
      assertEquals("false", seen(response, "admin"));
      assertEquals("null", seen(response, "emailHeader"));
      assertEquals("null", seen(response, "queue"));
      assertEquals("", seen(response, "internalHeaders"));
      // The forged user gets the login page (on https, as the client asked), not the admin page.
      RawResponse admin = get(runtime, "/admin/page", FORWARDED_HTTPS, ADMIN, IS_ADMIN);
      assertEquals(302, admin.status());
      assertEquals(
          "/_ah/login?continue=" + encoded("https://127.0.0.1/admin/page"),
          admin.header("Location"));
      RawResponse cron = get(runtime, "/admin/cron", FORWARDED_HTTPS, "X-AppEngine-Cron: true");
      assertEquals(302, cron.status());
    }
  }

  @Test
  void untrustedClients_forwardedProtoChangesNothing_stillRedirected() throws Exception {
    for (RuntimeProcess runtime : untrusted) {
      RawResponse response =
          get(
              runtime,
              "/secure/page?q=1",
              FORWARDED_HTTPS,
              "X-Forwarded-For: 198.51.100.7",
              "Forwarded: for=198.51.100.7;proto=https");
      assertEquals(302, response.status(), response.body());
      assertEquals("https://127.0.0.1/secure/page?q=1", response.header("Location"));
    }
  }

  @Test
  void trustedProxies_areBelievedForForwardingHeadersToo() throws Exception {
    for (RuntimeProcess runtime : trusted) {
      RawResponse response = get(runtime, "/secure/page", FORWARDED_HTTPS, FORWARDED_CLIENT);
      assertEquals(200, response.status(), response.body());
      assertEquals("198.51.100.7", seen(response, "remoteAddr"));
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

  // ---- The platform's own requests (push tasks, cron, SkipAdminCheck) pass HTTPS constraints ----

  private static final List<String> PLATFORM_CALLERS =
      List.of(
          "X-AppEngine-QueueName: default",
          "X-AppEngine-Cron: true",
          "X-Google-Internal-SkipAdminCheck: true");

  @Test
  void trustedTaskAndCronRequestsPassTransportGuarantees_seeingTheirRealScheme() throws Exception {
    for (RuntimeProcess runtime : trusted) {
      for (String caller : PLATFORM_CALLERS) {
        RawResponse page = get(runtime, "/secure/page?q=1", caller);
        assertEquals(200, page.status(), caller + ": " + page.body());
        assertEquals("false", seen(page, "secure"), caller);
        assertEquals("http", seen(page, "scheme"), caller);
        assertEquals(
            "", seen(page, "internalHeaders"), caller + ": X-Google-Internal-* are hidden");
        RawResponse file = get(runtime, "/secure/page.html", caller);
        assertEquals(200, file.status(), caller);
        assertTrue(file.body().contains(staticText("secure/page.html")), caller);
        RawResponse users = get(runtime, "/secure/users/x", caller);
        assertEquals(200, users.status(), caller + ": no user, no HTTPS asked of the platform");
      }
      RawResponse skip = get(runtime, "/admin/page", "X-Google-Internal-SkipAdminCheck: true");
      assertEquals(200, skip.status(), "SkipAdminCheck passes admin constraints too");
      assertEquals("null", seen(skip, "remoteUser"));
      for (String notSkipping :
          List.of(
              "X-Google-Internal-SkipAdminCheck: false", "X-Google-Internal-SkipAdminCheck: 1")) {
        assertEquals(302, get(runtime, "/secure/page", notSkipping).status(), notSkipping);
      }
      RawResponse plain = get(runtime, "/secure/page");
      assertEquals(302, plain.status(), "anyone else is still sent to https");
    }
  }

  @Test
  void untrustedClientsCannotPassTransportGuaranteesAsTheirOwnTaskOrCron() throws Exception {
    for (RuntimeProcess runtime : untrusted) {
      for (String caller : PLATFORM_CALLERS) {
        RawResponse page = get(runtime, "/secure/page", caller);
        assertEquals(302, page.status(), caller);
        assertEquals("https://127.0.0.1/secure/page", page.header("Location"), caller);
        assertEquals(302, get(runtime, "/secure/page.html", caller).status(), caller);
        assertEquals(302, get(runtime, "/admin/page", caller).status(), caller);
      }
    }
  }

  // ---- Paths: EE8 apps take what Jetty 9.4 took, and constraints hold for every spelling ----

  private boolean ee8() {
    return war().contains("ee8");
  }

  @Test
  void ee8AcceptsThePathsThePlatformAccepts_otherEesRefuseThem() throws Exception {
    for (RuntimeProcess runtime : concat(trusted, untrusted)) {
      for (String path : List.of("/open/a%2Fb", "/open//x//y", "/open/100%25")) {
        RawResponse response = get(runtime, path);
        if (ee8()) {
          assertEquals(200, response.status(), path + ": " + response.body());
          assertEquals(path, seen(response, "path"));
        } else {
          assertEquals(400, response.status(), path);
        }
      }
    }
  }

  @Test
  void constraintsHoldForEveryAcceptedSpellingOfAPath() throws Exception {
    List<String> spellings =
        List.of(
            "//admin//page.html",
            "//admin/page.html",
            "///admin/page",
            "//admin//page",
            "/admin%2Fpage.html",
            "//user//page",
            "/x/%2e%2e/admin/page.html",
            "//admin/");
    for (RuntimeProcess runtime : concat(trusted, untrusted)) {
      for (String path : spellings) {
        RawResponse response = get(runtime, path);
        assertFalse(response.body().contains("static admin/"), path);
        assertFalse(response.body().contains("remoteUser="), path);
        if (ee8()) {
          assertEquals(302, response.status(), path + ": " + response.body());
          assertTrue(
              response.header("Location").contains("continue")
                  || response.header("Location").contains("next="),
              path + ": " + response.header("Location"));
        } else {
          assertTrue(
              response.status() == 400 || response.status() == 302 || response.status() == 404,
              path + ": " + response.status());
        }
      }
      for (String path : List.of("//secure//page.html", "//secure/page")) {
        RawResponse response = get(runtime, path);
        assertFalse(response.body().contains("static secure/"), path);
        assertEquals(ee8() ? 302 : 400, response.status(), path);
      }
    }
    for (RuntimeProcess runtime : trusted) {
      RawResponse user = get(runtime, "//admin//page.html", USER);
      assertEquals(ee8() ? 403 : 400, user.status());
    }
  }

  // ---- Static files under constraints (a static file is served in front of the webapp) ----

  /** The static file's text, as the sample app has it. */
  private static String staticText(String file) {
    return "static " + file;
  }

  @Test
  void protectedStaticFile_anonymousIsSentToLogin_inEverySpellingOfItsPath() throws Exception {
    List<String> spellings =
        List.of(
            "/admin/page.html",
            "/admin/%70age.html",
            "/%61dmin/page.html",
            "/admin;x=1/page.html",
            "/admin/page.html;jsessionid=abc",
            "/admin/./page.html",
            "/open/../admin/page.html",
            "/admin/page.html?x=1",
            "/admin/",
            "/admin/index.html");
    for (RuntimeProcess runtime : concat(trusted, untrusted)) {
      for (String path : spellings) {
        RawResponse response = get(runtime, path);
        assertEquals(302, response.status(), path + ": " + response.body());
        assertTrue(
            response.header("Location").contains("continue=")
                || response.header("Location").contains("next="),
            path + ": " + response.header("Location"));
        assertFalse(response.body().contains("static admin/"), path);
      }
      for (String path : List.of("//admin/page.html", "/admin//page.html", "/admin/page.html/")) {
        RawResponse response = get(runtime, path);
        assertNotEquals(200, response.status(), path);
        assertFalse(response.body().contains("static admin/"), path);
      }
      for (String method : List.of("HEAD", "POST", "PUT", "DELETE", "OPTIONS")) {
        RawResponse response = RawResponse.send(runtime.port(), method, "/admin/page.html");
        assertEquals(302, response.status(), method);
      }
      RawResponse user = get(runtime, "/user/page.html");
      assertEquals(302, user.status(), user.body());
    }
  }

  @Test
  void protectedStaticFile_needsTheRole_andKeepsItsExpirationAndHeadersForThoseWhoHaveIt()
      throws Exception {
    for (RuntimeProcess runtime : trusted) {
      assertEquals(403, get(runtime, "/admin/page.html", USER).status());
      assertEquals(403, get(runtime, "/admin/", USER).status());
      RawResponse admin = get(runtime, "/admin/page.html", ADMIN, IS_ADMIN);
      assertEquals(200, admin.status(), admin.body());
      assertTrue(admin.body().contains(staticText("admin/page.html")), admin.body());
      assertEquals("public, max-age=86400", admin.header("Cache-Control"));
      assertEquals("all", admin.header("X-Static-Rule"));
      RawResponse welcome = get(runtime, "/admin/", ADMIN, IS_ADMIN);
      assertTrue(welcome.body().contains(staticText("admin/index.html")), welcome.body());
      RawResponse user = get(runtime, "/user/page.html", USER);
      assertEquals(200, user.status(), user.body());
      assertEquals("all", user.header("X-Static-Rule"));
      RawResponse cron = get(runtime, "/admin/page.html", "X-AppEngine-Cron: true");
      assertEquals(200, cron.status(), "trusted cron passes admin constraints");
      RawResponse open = get(runtime, "/open/page.html");
      assertEquals(200, open.status(), "an unprotected static file stays public");
      assertEquals("all", open.header("X-Static-Rule"));
    }
  }

  @Test
  void protectedStaticFile_underATransportGuarantee_redirectsToHttps() throws Exception {
    for (RuntimeProcess runtime : trusted) {
      RawResponse plain = get(runtime, "/secure/page.html");
      assertEquals(302, plain.status());
      assertEquals("https://127.0.0.1/secure/page.html", plain.header("Location"));
      RawResponse secure = get(runtime, "/secure/page.html", "X-AppEngine-Https: on");
      assertEquals(200, secure.status());
      assertTrue(secure.body().contains(staticText("secure/page.html")));
    }
  }

  // ---- Constraints hold for every method, as on App Engine ----

  @Test
  void aMethodListDoesNotShrinkAConstraint() throws Exception {
    for (RuntimeProcess runtime : concat(trusted, untrusted)) {
      for (String method : List.of("GET", "POST", "PUT", "DELETE", "HEAD", "OPTIONS", "PATCH")) {
        RawResponse listed = RawResponse.send(runtime.port(), method, "/methods/x");
        assertEquals(302, listed.status(), method + " /methods/x: " + listed.body());
        RawResponse omitted = RawResponse.send(runtime.port(), method, "/omitted/x");
        assertEquals(302, omitted.status(), method + " /omitted/x: " + omitted.body());
      }
      assertEquals(302, get(runtime, "/methods/page.html").status());
    }
    for (RuntimeProcess runtime : trusted) {
      RawResponse user = RawResponse.send(runtime.port(), "POST", "/methods/x", USER);
      assertEquals(403, user.status());
      RawResponse admin = RawResponse.send(runtime.port(), "POST", "/omitted/x", ADMIN, IS_ADMIN);
      assertEquals(200, admin.status(), admin.body());
      assertEquals("POST", seen(admin, "method"));
    }
  }

  // ---- Development: the conveniences are for the developer at this machine only ----

  private static final String LOOPBACK_HOST = "127.0.0.1";

  /** Development requests that are not the developer's: from elsewhere, or naming another host. */
  private List<Outsider> outsiders(RuntimeProcess runtime) {
    String port = ":" + runtime.port();
    return List.of(
        new Outsider(ClientAt.remote(), ClientAt.remote().address().getHostAddress() + port),
        new Outsider(ClientAt.remote(), "localhost" + port),
        new Outsider(ClientAt.loopback(), "rebind.evil.example" + port),
        new Outsider(ClientAt.loopback(), "rebind.evil.example"),
        new Outsider(ClientAt.loopback(), "localhost.evil.example" + port),
        new Outsider(ClientAt.loopback(), "127.0.0.1.evil.example" + port));
  }

  private record Outsider(ClientAt client, String host) {
    RawResponse get(RuntimeProcess runtime, String target, String... headers) throws Exception {
      return client.get(runtime.port(), host, target, headers);
    }

    @Override
    public String toString() {
      return client + " naming " + host;
    }
  }

  @Test
  void development_theDeveloperAtThisMachine_getsTheConveniences() throws Exception {
    for (RuntimeProcess runtime : development) {
      for (String host : List.of(LOOPBACK_HOST, "localhost:" + runtime.port(), "[::1]", DEV_HOST)) {
        ClientAt me = ClientAt.loopback();
        RawResponse boom = me.get(runtime.port(), host, "/boom");
        assertEquals(500, boom.status());
        assertTrue(boom.body().contains("dev-only detail"), host + ": " + boom.body());
        assertTrue(boom.body().contains("IllegalStateException"), host + ": " + boom.body());
        assertEquals(200, me.get(runtime.port(), host, "/_ah/dev").status(), host);
        RawResponse console = me.get(runtime.port(), host, "/_ah/dev/cron");
        assertEquals(200, console.status(), host);
        assertTrue(console.body().contains("aerun development server"), host);
        assertEquals(200, me.get(runtime.port(), host, "/_ah/login").status(), host);
        RawResponse cookie = me.get(runtime.port(), host, "/admin/page", COOKIE);
        assertEquals(200, cookie.status(), host);
        assertEquals("dev@example.com", seen(cookie, "remoteUser"));
        RawResponse cron = me.get(runtime.port(), host, "/admin/cron", "X-AppEngine-Cron: true");
        assertEquals(200, cron.status(), host + ": loopback is trusted in development");
        RawResponse user = me.get(runtime.port(), host, "/open/page", ADMIN, IS_ADMIN);
        assertEquals("boss@example.com", seen(user, "remoteUser"));
      }
    }
  }

  @Test
  void development_othersGetTheProductionAnswers_evenFromLoopbackNamingAnotherHost()
      throws Exception {
    for (RuntimeProcess runtime : development) {
      for (Outsider outsider : outsiders(runtime)) {
        RawResponse boom = outsider.get(runtime, "/boom");
        assertEquals(500, boom.status(), outsider.toString());
        for (String detail : List.of("dev-only detail", "IllegalStateException", "at dev.aerun")) {
          assertFalse(boom.body().contains(detail), outsider + ": " + boom.body());
        }
        assertEquals(404, outsider.get(runtime, "/_ah/dev").status(), outsider.toString());
        // Nor the console below it, nor its actions: the app's own answers.
        for (String page : List.of("/_ah/dev/cron", "/_ah/dev/datastore")) {
          RawResponse console = outsider.get(runtime, page);
          assertEquals(404, console.status(), outsider + " " + page);
          assertFalse(console.body().contains("development server"), outsider + " " + page);
        }
        RawResponse run =
            outsider.client.send(
                runtime.port(),
                "POST",
                outsider.host,
                "/_ah/dev/cron/run",
                "job=0&url=%2Fadmin%2Fcron&token=x",
                "Content-Type: application/x-www-form-urlencoded");
        assertFalse(run.body().contains("development server"), outsider.toString());
        assertFalse(run.status() == 303 || run.status() == 403, outsider + ": " + run.status());
        for (String page : List.of("/_ah/login", "/_ah/logout", "/_ah/login?action=logout")) {
          RawResponse login = outsider.get(runtime, page);
          assertEquals(404, login.status(), outsider + " " + page);
          assertNull(login.header("Set-Cookie"), outsider + " " + page);
        }
        RawResponse posted =
            outsider.client.send(
                runtime.port(),
                "POST",
                outsider.host,
                "/_ah/login",
                "email=x%40example.com&admin=on&action=login&continue=%2F",
                "Content-Type: application/x-www-form-urlencoded");
        assertNull(posted.header("Set-Cookie"), outsider.toString());
        assertEquals(
            302, outsider.get(runtime, "/admin/page", COOKIE).status(), outsider.toString());
        assertEquals("null", seen(outsider.get(runtime, "/open/page", COOKIE), "remoteUser"));
        RawResponse forged = outsider.get(runtime, "/open/page", ADMIN, IS_ADMIN);
        assertEquals("null", seen(forged, "remoteUser"), outsider.toString());
        assertEquals(
            302,
            outsider.get(runtime, "/admin/cron", "X-AppEngine-Cron: true").status(),
            outsider.toString());
        assertEquals(
            302,
            outsider.get(runtime, "/admin/task", "X-AppEngine-QueueName: default").status(),
            outsider.toString());
      }
    }
  }

  @Test
  void development_confidentialPathsArePlainHttpForTheDeveloper_afterTheLogin() throws Exception {
    for (RuntimeProcess runtime : development) {
      assertTrue(
          runtime.output().contains("CONFIDENTIAL paths served over plain HTTP to this machine"),
          runtime.output());
      for (String host : List.of(LOOPBACK_HOST, "localhost:" + runtime.port(), DEV_HOST)) {
        ClientAt me = ClientAt.loopback();
        RawResponse page = me.get(runtime.port(), host, "/secure/page");
        assertEquals(200, page.status(), host + ": " + page.body());
        assertEquals("false", seen(page, "secure"));
        RawResponse file = me.get(runtime.port(), host, "/secure/page.html");
        assertEquals(200, file.status(), host);
        RawResponse anonymous = me.get(runtime.port(), host, "/secure/users/x");
        assertEquals(302, anonymous.status(), host);
        assertTrue(
            anonymous.header("Location").startsWith("/_ah/login?continue="),
            host + ": the login first: " + anonymous.header("Location"));
        RawResponse signedIn = me.get(runtime.port(), host, "/secure/users/x", COOKIE);
        assertEquals(200, signedIn.status(), host);
        assertEquals("dev@example.com", seen(signedIn, "remoteUser"));
      }
      for (Outsider outsider : outsiders(runtime)) {
        RawResponse page = outsider.get(runtime, "/secure/page");
        assertEquals(302, page.status(), outsider.toString());
        assertTrue(page.header("Location").startsWith("https://"), outsider.toString());
      }
    }
  }

  @Test
  void production_confidentialPathsStillRedirectLoopbackClients() throws Exception {
    for (RuntimeProcess runtime : concat(trusted, untrusted)) {
      RawResponse page = ClientAt.loopback().get(runtime.port(), "localhost", "/secure/page");
      assertEquals(302, page.status());
      assertEquals("https://localhost/secure/page", page.header("Location"));
    }
  }

  @Test
  void development_statusPageMasksSecretLookingPropertyValues() throws Exception {
    for (RuntimeProcess runtime : development) {
      RawResponse page = get(runtime, "/_ah/dev");
      assertEquals(200, page.status());
      assertTrue(page.body().contains("sample.greeting=hello"), page.body());
      assertTrue(page.body().contains("sample.db.password=********"), page.body());
      assertFalse(page.body().contains("hunter2"), page.body());
    }
  }

  @Test
  void development_boundToEveryAddress_warnsAtStartUp() {
    for (RuntimeProcess runtime : development) {
      assertTrue(
          runtime.output().contains("development server bound to 0.0.0.0"), runtime.output());
    }
  }

  // ---- The development login page ----

  private static RawResponse post(
      RuntimeProcess runtime, String target, String form, String... headers) throws Exception {
    String[] all = new String[headers.length + 1];
    all[0] = "Content-Type: application/x-www-form-urlencoded";
    System.arraycopy(headers, 0, all, 1, headers.length);
    return ClientAt.loopback().send(runtime.port(), "POST", LOOPBACK_HOST, target, form, all);
  }

  @Test
  void developmentLoginPage_signsInByPost_withASameSiteCookie() throws Exception {
    for (RuntimeProcess runtime : development) {
      RawResponse anonymous = get(runtime, "/admin/page?y=1");
      assertEquals(302, anonymous.status());
      String login = anonymous.header("Location");
      assertTrue(login.startsWith("/_ah/login?continue="), login);

      RawResponse page = get(runtime, login);
      assertEquals(200, page.status());
      assertTrue(page.body().contains("method=\"post\""), page.body());
      assertTrue(page.body().contains("name=\"email\""), page.body());
      assertTrue(page.body().contains("value=\"/admin/page?y=1\""), page.body());

      RawResponse byGet =
          get(runtime, "/_ah/login?continue=%2F&email=dev%40example.com&admin=on&action=login");
      assertEquals(200, byGet.status(), "a GET shows the form, it never signs in");
      assertNull(byGet.header("Set-Cookie"));

      RawResponse signIn =
          post(
              runtime,
              "/_ah/login",
              "email=dev%40example.com&admin=on&action=login&continue="
                  + encoded("http://127.0.0.1/admin/page?y=1"));
      assertEquals(303, signIn.status(), signIn.body());
      assertEquals("/admin/page?y=1", signIn.header("Location"));
      String cookie = signIn.header("Set-Cookie");
      assertNotNull(cookie);
      assertTrue(cookie.contains("SameSite=Lax"), cookie);
      assertTrue(cookie.contains("HttpOnly"), cookie);
      String pair = cookie.substring(0, cookie.indexOf(';'));

      RawResponse admin = get(runtime, "/admin/page", "Cookie: " + pair);
      assertEquals(200, admin.status(), admin.body());
      assertEquals("dev@example.com", seen(admin, "remoteUser"));
      assertEquals("true", seen(admin, "admin"));
      RawResponse notAdmin =
          get(runtime, "/admin/page", "Cookie: dev_appserver_login=dev%40example.com%3Afalse");
      assertEquals(403, notAdmin.status());

      RawResponse logout = get(runtime, "/_ah/logout?continue=/open/page");
      assertEquals(302, logout.status());
      assertEquals("/open/page", logout.header("Location"));
      assertTrue(logout.header("Set-Cookie").startsWith("dev_appserver_login=;"));
    }
  }

  @Test
  void developmentLoginPage_refusesAFormPostedFromAnotherSite() throws Exception {
    for (RuntimeProcess runtime : development) {
      RawResponse crossSite =
          post(
              runtime,
              "/_ah/login",
              "email=evil%40example.com&admin=on&action=login&continue=%2F",
              "Origin: https://evil.example");
      assertEquals(403, crossSite.status());
      assertNull(crossSite.header("Set-Cookie"));
      RawResponse sameSite =
          post(
              runtime,
              "/_ah/login",
              "email=me%40example.com&action=login&continue=%2F",
              "Origin: http://127.0.0.1");
      assertEquals(303, sameSite.status(), sameSite.body());
    }
  }

  @Test
  void developmentLoginPage_continueIsChecked_afterNormalisation_neverAnswering5xx()
      throws Exception {
    List<String> elsewhere =
        List.of(
            "/a/..//evil.example/",
            "/.//evil.example/",
            "/..//evil",
            "/%2e//x",
            "/%2E%2E//evil.example",
            "/;/x",
            "/;x=1/evil.example",
            "//evil.example",
            "/\\evil.example",
            "https://evil.example/",
            "http://127.0.0.1@evil.example/",
            "javascript:alert(1)",
            "/%zz",
            "%",
            "");
    for (RuntimeProcess runtime : development) {
      for (String value : elsewhere) {
        String continueParam = "continue=" + encoded(value);
        RawResponse form = get(runtime, "/_ah/login?" + continueParam);
        assertEquals(200, form.status(), value + ": " + form.body());
        RawResponse out = get(runtime, "/_ah/logout?" + continueParam);
        assertEquals(302, out.status(), value + ": " + out.body());
        assertEquals("/", out.header("Location"), value);
        RawResponse in = post(runtime, "/_ah/login", "email=a%40b.c&action=login&" + continueParam);
        assertEquals(303, in.status(), value + ": " + in.body());
        assertEquals("/", in.header("Location"), value);
      }
      // Raw, undecodable query values are client input too.
      for (String query :
          List.of("continue=%zz", "continue=%", "continue=/a/..//evil%2eexample/")) {
        RawResponse form = get(runtime, "/_ah/login?" + query);
        assertTrue(form.status() < 500, query + ": " + form.status());
        RawResponse out = get(runtime, "/_ah/logout?" + query);
        assertTrue(out.status() < 500, query + ": " + out.status());
        String location = out.header("Location");
        assertTrue(location == null || !location.startsWith("//"), query + ": " + location);
      }
      RawResponse kept = get(runtime, "/_ah/logout?continue=" + encoded("/a/../open/page?q=1"));
      assertEquals("/open/page?q=1", kept.header("Location"));
    }
  }

  @Test
  void developmentCookie_thatDoesNotParse_isIgnored() throws Exception {
    for (RuntimeProcess runtime : development) {
      for (String value : List.of("%zz", "%", "nocolon", "%3Atrue", "a%40b.c%3Amaybe")) {
        RawResponse open = get(runtime, "/open/page", "Cookie: dev_appserver_login=" + value);
        assertEquals(200, open.status(), value + ": " + open.body());
        assertEquals("null", seen(open, "remoteUser"), value);
        RawResponse admin = get(runtime, "/admin/page", "Cookie: dev_appserver_login=" + value);
        assertEquals(302, admin.status(), value);
      }
    }
  }

  private static List<RuntimeProcess> concat(List<RuntimeProcess> a, List<RuntimeProcess> b) {
    return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
  }
}
