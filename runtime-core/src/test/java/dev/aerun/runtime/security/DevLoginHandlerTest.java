package dev.aerun.runtime.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class DevLoginHandlerTest {
  @Test
  void continueIsAPathOfThisServer_afterNormalisation() {
    assertEquals("/admin?x=1", DevLoginHandler.safeContinue("/admin?x=1", "app.test"));
    assertEquals("/a", DevLoginHandler.safeContinue("http://app.test/a", "app.test"));
    assertEquals("/a?b=c", DevLoginHandler.safeContinue("https://APP.test:8443/a?b=c", "app.test"));
    assertEquals("/b", DevLoginHandler.safeContinue("/a/../b", "app.test"));
    assertEquals("/a%20b", DevLoginHandler.safeContinue("/a%20b", "app.test"));
    assertEquals("/", DevLoginHandler.safeContinue("http://app.test", "app.test"));
  }

  @Test
  void continueElsewhereOrMalformed_isTheRoot() {
    List<String> elsewhere =
        List.of(
            "//evil.test/a",
            "/\\evil.test",
            "https://evil.test/a",
            "http://app.test@evil.test/",
            "javascript:alert(1)",
            "/a/..//evil.test/",
            "/.//evil.test/",
            "/..//evil",
            "/../x",
            "/%2e//x",
            "/%2E%2E//evil.test",
            "/;/x",
            "/;x=1/evil.test",
            "/a/;/..//evil.test",
            "/%zz",
            "%",
            "",
            "relative/path",
            "/a\r\nSet-Cookie: x=1");
    for (String value : elsewhere) {
      assertEquals("/", DevLoginHandler.safeContinue(value, "app.test"), value);
    }
    assertEquals("/", DevLoginHandler.safeContinue(null, "app.test"));
    assertEquals("/", DevLoginHandler.safeContinue("http://app.test/a", null));
  }

  @Test
  void userIdIsStablePerEmail() {
    assertEquals(DevLoginHandler.userId("A@example.com"), DevLoginHandler.userId("a@example.com"));
    assertNotEquals(
        DevLoginHandler.userId("a@example.com"), DevLoginHandler.userId("b@example.com"));
  }
}
