package dev.aerun.runtime.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.runtime.contract.AppEngineRequestHandler;
import dev.aerun.runtime.contract.ContractOptions;
import dev.aerun.runtime.contract.TrustPolicy;
import dev.aerun.runtime.dev.DeveloperHandler;
import dev.aerun.runtime.dev.DevelopmentHosts;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.List;
import java.util.Set;
import org.eclipse.jetty.http.HttpTester;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.security.AuthenticationState;
import org.eclipse.jetty.security.Constraint;
import org.eclipse.jetty.security.SecurityHandler;
import org.eclipse.jetty.server.ConnectionMetaData;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.LocalConnector;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The login service and authenticator on Jetty's core security handler, behind the real request
 * contract, on a LocalConnector: who becomes a user, an admin, cron or a task, and from whom.
 */
class AppEngineLoginTest {
  /** LocalConnector's endpoints report 0.0.0.0 as the peer. */
  private static final TrustPolicy TRUST_LOCAL = TrustPolicy.parse("0.0.0.0");

  private Server server;
  private LocalConnector connector;

  @AfterEach
  void stop() throws Exception {
    if (server != null) {
      server.stop();
    }
  }

  private void start(TrustPolicy trust, Handler inFront) throws Exception {
    start(trust, inFront, (Handler.Wrapper) inFront);
  }

  /** With {@code inFront} (or nothing) between the contract and {@code last}, then security. */
  private void start(TrustPolicy trust, Handler inFront, Handler.Wrapper last) throws Exception {
    server = new Server();
    connector = new LocalConnector(server);
    server.addConnector(connector);
    PathConstraints constraints =
        PathConstraints.of(
            List.of(
                declared("/admin/*", Constraint.from(AppEngineUsers.ADMIN_ROLE)),
                declared("/user/*", Constraint.ANY_USER),
                declared("/secure/*", Constraint.SECURE_TRANSPORT),
                declared(
                    "/secure-admin/*",
                    Constraint.from(
                        "secure-admin",
                        Constraint.Transport.SECURE,
                        Constraint.Authorization.SPECIFIC_ROLE,
                        Set.of(AppEngineUsers.ADMIN_ROLE))),
                declared("/nobody/*", Constraint.FORBIDDEN)));
    SecurityHandler security =
        new SecurityHandler() {
          @Override
          protected Constraint getConstraint(String pathInContext, Request request) {
            return constraints.forRequest(pathInContext, request);
          }

          @Override
          protected void redirectToSecure(Request request, Response response, Callback callback) {
            // As the EE security handlers do: https on the default port.
            Response.sendRedirect(
                request,
                response,
                callback,
                302,
                AppEngineUsers.secureUrl(request.getHttpURI()),
                true);
          }
        };
    security.setLoginService(new AppEngineLoginService());
    security.setAuthenticator(new AppEngineAuthenticator(LoginUrls.defaults()));
    security.setHandler(new WhoAmI());
    AppEngineRequestHandler contract =
        new AppEngineRequestHandler(new ContractOptions(trust, false));
    server.setHandler(contract);
    if (inFront == null) {
      contract.setHandler(security);
    } else {
      contract.setHandler(inFront);
      last.setHandler(security);
    }
    server.start();
  }

  private static PathConstraints.Declared declared(String path, Constraint constraint) {
    return new PathConstraints.Declared(path, Set.of(), Set.of(), constraint);
  }

  private HttpTester.Response get(String path, String... headers) throws Exception {
    StringBuilder raw = new StringBuilder("GET " + path + " HTTP/1.1\r\n");
    if (java.util.Arrays.stream(headers).noneMatch(h -> h.startsWith("Host:"))) {
      raw.append("Host: app.test\r\n");
    }
    for (String header : headers) {
      raw.append(header).append("\r\n");
    }
    raw.append("Connection: close\r\n\r\n");
    return HttpTester.parseResponse(connector.getResponse(raw.toString()));
  }

  @Test
  void trustedAdminPassesAdminAndStar() throws Exception {
    start(TRUST_LOCAL, null);
    HttpTester.Response admin =
        get("/admin/x", "X-AppEngine-User-Email: a@example.com", "X-AppEngine-User-Is-Admin: 1");
    assertEquals(200, admin.getStatus());
    assertEquals("user=a@example.com admin=true star=true", admin.getContent());
    assertEquals(200, get("/user/x", "X-AppEngine-User-Email: b@example.com").getStatus());
  }

  @Test
  void trustedUserWithoutAdminGets403() throws Exception {
    start(TRUST_LOCAL, null);
    assertEquals(403, get("/admin/x", "X-AppEngine-User-Email: b@example.com").getStatus());
  }

  @Test
  void anonymousIsRedirectedToLoginWithContinue() throws Exception {
    start(TRUST_LOCAL, null);
    HttpTester.Response response = get("/admin/x?a=b");
    assertEquals(302, response.getStatus());
    assertEquals(
        "/_ah/login?continue=http%3A%2F%2Fapp.test%2Fadmin%2Fx%3Fa%3Db", response.get("Location"));
  }

  @Test
  void trustedCronAndTaskPassAdminWithoutAUser() throws Exception {
    start(TRUST_LOCAL, null);
    HttpTester.Response cron = get("/admin/x", "X-AppEngine-Cron: true");
    assertEquals(200, cron.getStatus());
    assertEquals("user=null admin=false star=false", cron.getContent());
    assertEquals(200, get("/admin/x", "X-AppEngine-QueueName: q").getStatus());
    assertEquals(200, get("/user/x", "X-AppEngine-QueueName: q").getStatus());
  }

  @Test
  void trustedPlatformRequestsPassTransportGuaranteesWithoutARedirect() throws Exception {
    start(TRUST_LOCAL, null);
    for (String platform :
        List.of(
            "X-AppEngine-QueueName: default",
            "X-AppEngine-Cron: true",
            "X-Google-Internal-SkipAdminCheck: true")) {
      assertEquals(200, get("/secure/x", platform).getStatus(), platform);
      assertEquals(200, get("/secure-admin/x", platform).getStatus(), platform);
      assertEquals(200, get("/admin/x", platform).getStatus(), platform);
      assertEquals(
          403, get("/nobody/x", platform).getStatus(), platform + ": forbidden is for all");
    }
    assertEquals(302, get("/secure/x").getStatus());
    assertEquals(302, get("/secure/x", "X-Google-Internal-SkipAdminCheck: false").getStatus());
    assertEquals(302, get("/admin/x", "X-Google-Internal-SkipAdminCheck: 1").getStatus());
  }

  @Test
  void untrustedPlatformHeadersPassNoTransportGuarantee() throws Exception {
    start(TrustPolicy.trustNone(), null);
    for (String forged :
        List.of(
            "X-AppEngine-QueueName: default",
            "X-AppEngine-Cron: true",
            "X-Google-Internal-SkipAdminCheck: true")) {
      HttpTester.Response response = get("/secure/x", forged);
      assertEquals(302, response.getStatus(), forged);
      assertEquals("https://app.test/secure/x", response.get("Location"));
      assertEquals(302, get("/admin/x", forged).getStatus(), forged);
    }
  }

  @Test
  void theDeveloperGetsPlainHttpWhereHttpsIsAsked_afterSigningIn() throws Exception {
    DevLoginHandler login = new DevLoginHandler(null);
    start(
        TrustPolicy.trustNone(),
        new LoopbackPeer(new DeveloperHandler(DevelopmentHosts.loopback(), login)),
        login);
    assertEquals(200, get("/secure/x", "Host: localhost").getStatus());
    HttpTester.Response anonymous = get("/secure-admin/x", "Host: localhost");
    assertEquals(302, anonymous.getStatus());
    assertTrue(anonymous.get("Location").startsWith("/_ah/login?continue="), anonymous.toString());
    assertEquals(
        200,
        get(
                "/secure-admin/x",
                "Host: localhost",
                "Cookie: " + DevLoginHandler.COOKIE + "=dev%40example.com%3Atrue")
            .getStatus());
    HttpTester.Response rebound = get("/secure/x", "Host: rebind.evil.example");
    assertEquals(302, rebound.getStatus(), "not the developer's: HTTPS is asked");
    assertEquals("https://rebind.evil.example/secure/x", rebound.get("Location"));
  }

  @Test
  void untrustedPeersHeadersNeverMakeAUserAnAdminCronOrATask() throws Exception {
    start(TrustPolicy.trustNone(), null);
    String[][] forgeries = {
      {"X-AppEngine-User-Email: a@example.com", "X-AppEngine-User-Is-Admin: 1"},
      {"X-AppEngine-Cron: true"},
      {"X-AppEngine-QueueName: default"},
      {"x-appengine-user-email: a@example.com", "X-APPENGINE-CRON: true"},
    };
    for (String[] forged : forgeries) {
      assertEquals(302, get("/admin/x", forged).getStatus(), String.join(",", forged));
      assertEquals(302, get("/user/x", forged).getStatus(), String.join(",", forged));
    }
  }

  @Test
  void requestAttributesSetByAnUntrustedClientCannotExist() throws Exception {
    // A client can only send headers; attributes are the contract's. A handler in front that sets
    // nothing leaves the request anonymous even with every user header forged.
    start(TrustPolicy.trustNone(), new Handler.Wrapper());
    HttpTester.Response response =
        get(
            "/admin/x",
            "X-AppEngine-User-Email: a@example.com",
            "X-AppEngine-User-Is-Admin: true",
            "com.google.appengine.user.email: a@example.com");
    assertEquals(302, response.getStatus());
  }

  @Test
  void developmentCookieSignsInOnlyBehindTheDevelopmentHandler_forTheDeveloper() throws Exception {
    DevLoginHandler login = new DevLoginHandler(null);
    start(
        TrustPolicy.trustNone(),
        new LoopbackPeer(new DeveloperHandler(DevelopmentHosts.loopback(), login)),
        login);
    HttpTester.Response admin =
        get(
            "/admin/x",
            "Host: localhost",
            "Cookie: " + DevLoginHandler.COOKIE + "=dev%40example.com%3Atrue");
    assertEquals(200, admin.getStatus());
    assertTrue(admin.getContent().startsWith("user=dev@example.com admin=true"));
    HttpTester.Response rebound =
        get(
            "/admin/x",
            "Host: rebind.evil.example",
            "Cookie: " + DevLoginHandler.COOKIE + "=dev%40example.com%3Atrue");
    assertEquals(302, rebound.getStatus(), "a request naming another host is not the developer's");
    stop();

    login = new DevLoginHandler(null);
    start(TrustPolicy.trustNone(), new DeveloperHandler(DevelopmentHosts.loopback(), login), login);
    HttpTester.Response fromElsewhere =
        get(
            "/admin/x",
            "Host: localhost",
            "Cookie: " + DevLoginHandler.COOKIE + "=dev%40example.com%3Atrue");
    assertEquals(302, fromElsewhere.getStatus(), "LocalConnector's peer (0.0.0.0) is not loopback");
    stop();

    start(TrustPolicy.trustNone(), null);
    HttpTester.Response production =
        get("/admin/x", "Cookie: " + DevLoginHandler.COOKIE + "=dev%40example.com%3Atrue");
    assertEquals(302, production.getStatus());
  }

  /** The request as if its peer were 127.0.0.1 (LocalConnector's is 0.0.0.0). */
  private static final class LoopbackPeer extends Handler.Wrapper {
    LoopbackPeer(Handler next) {
      super(next);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
      ConnectionMetaData loopback =
          new ConnectionMetaData.Wrapper(request.getConnectionMetaData()) {
            @Override
            public SocketAddress getRemoteSocketAddress() {
              return new InetSocketAddress(InetAddress.getLoopbackAddress(), 40000);
            }
          };
      return super.handle(
          new Request.Wrapper(request) {
            @Override
            public ConnectionMetaData getConnectionMetaData() {
              return loopback;
            }
          },
          response,
          callback);
    }
  }

  /** Answers what the security handler decided about the request. */
  private static final class WhoAmI extends Handler.Abstract {
    @Override
    public boolean handle(Request request, Response response, Callback callback) {
      AuthenticationState state = AuthenticationState.getAuthenticationState(request);
      String user = "null";
      boolean admin = false;
      boolean star = false;
      if (state instanceof AuthenticationState.Succeeded succeeded) {
        user = succeeded.getUserPrincipal().getName();
        admin = succeeded.isUserInRole(AppEngineUsers.ADMIN_ROLE);
        star = succeeded.isUserInRole(AppEngineUsers.ANY_USER_ROLE);
      }
      response.setStatus(200);
      Content.Sink.write(
          response, true, "user=" + user + " admin=" + admin + " star=" + star, callback);
      return true;
    }
  }
}
