package dev.aerun.runtime.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class LoginUrlsTest {
  @Test
  void defaultLoginUrlCarriesTheEncodedContinueUrl() {
    assertEquals(
        "/_ah/login?continue=http%3A%2F%2Fa.test%2Fx%3Fy%3D1%26z",
        LoginUrls.defaults().loginUrl("http://a.test/x?y=1&z"));
    assertEquals("/_ah/logout?continue=%2F", LoginUrls.defaults().logoutUrl("/"));
  }

  @Test
  void placeholderIsReplacedWherePut() {
    LoginUrls urls = new LoginUrls("https://idp.test/in?next={continue}&x=1", "/out");
    assertEquals("https://idp.test/in?next=%2Fa&x=1", urls.loginUrl("/a"));
  }

  @Test
  void templateWithoutPlaceholderGetsAContinueParameter() {
    assertEquals("/out?continue=%2Fa", new LoginUrls("/in", "/out").logoutUrl("/a"));
    assertEquals("/in?x=1&continue=%2Fa", new LoginUrls("/in?x=1", "/out").loginUrl("/a"));
  }

  @Test
  void rejectsWhatIsNotAPathOrAnHttpUrl() {
    assertThrows(IllegalArgumentException.class, () -> new LoginUrls("javascript:alert(1)", "/"));
    assertThrows(IllegalArgumentException.class, () -> new LoginUrls("/a b", "/"));
    assertThrows(IllegalArgumentException.class, () -> new LoginUrls("/", "/x\r\nSet-Cookie: a"));
  }
}
