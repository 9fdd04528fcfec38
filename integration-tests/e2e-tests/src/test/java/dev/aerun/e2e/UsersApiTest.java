package dev.aerun.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.testing.RawResponse;
import dev.aerun.testing.RuntimeProcess;
import dev.aerun.testing.Runtimes;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * App Engine's bundled services for an {@code <app-engine-apis>} app that bundles the App Engine
 * API SDK (the sample Users API app), in both modes: the Users API, the app's ids and the request
 * deadline work; a remote service fails at once and names its replacement.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class UsersApiTest {
  @RegisterExtension final Runtimes runtimes = new Runtimes();

  private List<RuntimeProcess> modes;

  @BeforeAll
  void start() throws Exception {
    modes =
        List.of(
            launch("--mode", "http", "--trusted-proxies", "127.0.0.1"),
            launch("--mode", "legacy", "--trusted-proxies", "127.0.0.1"));
  }

  /**
   * Starts one runtime and waits for it: one at a time, so a loaded machine starts each in time.
   */
  private RuntimeProcess launch(String... args) throws Exception {
    RuntimeProcess runtime =
        runtimes.start(
            RuntimeProcess.launch(RuntimeProcess.app("sample-users-ee8.war"))
                .args(args)
                .args("--log-format", "text"));
    runtime.port();
    return runtime;
  }

  private static String seen(RawResponse response, String name) {
    for (String line : response.body().split("\n")) {
      if (line.startsWith(name + "=")) {
        return line.substring(name.length() + 1).trim();
      }
    }
    throw new AssertionError("no " + name + " in " + response.body());
  }

  @Test
  void anonymousUserGetsALoginUrlAndTheAppsIds() throws Exception {
    for (RuntimeProcess runtime : modes) {
      RawResponse response = RawResponse.get(runtime.port(), "/users");
      assertEquals(200, response.status(), response.body());
      assertEquals("Please sign in", seen(response, "greeting"));
      assertEquals("/_ah/login?continue=%2Fusers", seen(response, "login"));
      assertEquals("users-sample", seen(response, "appId"));
      assertEquals("v7", seen(response, "versionId"));
      assertEquals("default", seen(response, "moduleId"));
      assertEquals("true", seen(response, "remainingPositive"));
    }
  }

  @Test
  void signedInUserIsTheFrontEndsUser() throws Exception {
    for (RuntimeProcess runtime : modes) {
      RawResponse response =
          RawResponse.get(
              runtime.port(),
              "/users",
              "X-AppEngine-User-Email: ann@example.com",
              "X-AppEngine-User-Id: 1234",
              "X-AppEngine-User-Nickname: ann",
              "X-AppEngine-Auth-Domain: example.com",
              "X-AppEngine-User-Is-Admin: 1",
              "X-AppEngine-Timeout-Ms: 30000");
      assertEquals(200, response.status(), response.body());
      assertEquals("Hello, ann", seen(response, "greeting"));
      assertEquals("ann@example.com", seen(response, "email"));
      assertEquals("1234", seen(response, "userId"));
      assertEquals("example.com", seen(response, "authDomain"));
      assertEquals("true", seen(response, "admin"));
      assertEquals("/_ah/logout?continue=%2Fusers", seen(response, "logout"));
      long remaining = Long.parseLong(seen(response, "remainingAtMost"));
      assertTrue(remaining > 0 && remaining <= 30000, "remaining " + remaining);
    }
  }

  @Test
  void theWelcomeServletGreetsTheSignedInUserThroughTheServletApi_withoutAConstraint()
      throws Exception {
    for (RuntimeProcess runtime : modes) {
      RawResponse response =
          RawResponse.get(
              runtime.port(),
              "/",
              "X-AppEngine-User-Email: ann@example.com",
              "X-AppEngine-Auth-Domain: example.com");
      assertEquals(200, response.status(), response.body());
      assertEquals("Hello, ann", seen(response, "greeting"));
      assertEquals("ann@example.com", seen(response, "principal"));
      assertEquals("ann@example.com", seen(response, "remoteUser"));
      RawResponse anonymous = RawResponse.get(runtime.port(), "/");
      assertEquals(200, anonymous.status(), anonymous.body());
      assertEquals("null", seen(anonymous, "principal"));
      assertEquals("Please sign in", seen(anonymous, "greeting"));
    }
  }

  @Test
  void remoteServicesFailAtOnceNamingTheirReplacement() throws Exception {
    for (RuntimeProcess runtime : modes) {
      RawResponse response = RawResponse.get(runtime.port(), "/datastore");
      assertEquals(200, response.status(), response.body());
      String failure = seen(response, "failure");
      assertTrue(failure.contains("ApiProxy$FeatureNotEnabledException"), failure);
      assertTrue(failure.contains("Datastore service (datastore_v3.Get)"), failure);
      assertTrue(failure.contains("no App Engine API host is named"), failure);
      assertTrue(failure.contains("google-cloud-datastore"), failure);
    }
  }

  @Test
  void theStartLineWarnsOnceThatAppEngineApisAreOn() throws Exception {
    for (RuntimeProcess runtime : modes) {
      String output = runtime.output();
      int first = output.indexOf("<app-engine-apis> is on");
      assertTrue(first >= 0, output);
      assertEquals(-1, output.indexOf("<app-engine-apis> is on", first + 1), output);
    }
  }
}
