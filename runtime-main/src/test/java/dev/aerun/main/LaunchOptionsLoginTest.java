package dev.aerun.main;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.runtime.security.LoginUrls;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LaunchOptionsLoginTest {
  private static LaunchOptions parse(String... args) throws Exception {
    return LaunchOptions.parse(Map.of(), Map.of(), args);
  }

  @Test
  void loginUrlsDefaultToThePlatformPaths() throws Exception {
    assertEquals(LoginUrls.defaults(), parse("app").loginUrls());
  }

  @Test
  void loginAndLogoutUrlsAreRead() throws Exception {
    LoginUrls urls =
        parse("--login-url", "https://idp.test/in?next={continue}", "--logout-url=/bye", "app")
            .loginUrls();
    assertEquals("https://idp.test/in?next=%2Fx", urls.loginUrl("/x"));
    assertEquals("/bye?continue=%2Fx", urls.logoutUrl("/x"));
  }

  @Test
  void badLoginUrlIsAUsageErrorNamingTheOption() {
    UsageException e =
        assertThrows(UsageException.class, () -> parse("--login-url", "ftp://x", "app"));
    assertTrue(e.getMessage().startsWith("--login-url: "), e.getMessage());
  }

  @Test
  void usageNamesTheLoginOptions() {
    assertTrue(LaunchOptions.usage().contains("--login-url TEMPLATE"));
    assertTrue(LaunchOptions.usage().contains("--logout-url TEMPLATE"));
  }
}
