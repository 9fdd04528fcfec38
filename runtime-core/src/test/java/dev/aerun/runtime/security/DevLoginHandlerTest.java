package dev.aerun.runtime.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.junit.jupiter.api.Test;

class DevLoginHandlerTest {
  @Test
  void continueStaysOnThisServer() {
    assertEquals("/admin?x=1", DevLoginHandler.safeContinue("/admin?x=1", "app.test"));
    assertEquals(
        "http://app.test/a", DevLoginHandler.safeContinue("http://app.test/a", "app.test"));
    assertEquals("/", DevLoginHandler.safeContinue("//evil.test/a", "app.test"));
    assertEquals("/", DevLoginHandler.safeContinue("/\\evil.test", "app.test"));
    assertEquals("/", DevLoginHandler.safeContinue("https://evil.test/a", "app.test"));
    assertEquals("/", DevLoginHandler.safeContinue("javascript:alert(1)", "app.test"));
    assertEquals("/", DevLoginHandler.safeContinue(null, "app.test"));
  }

  @Test
  void userIdIsStablePerEmail() {
    assertEquals(DevLoginHandler.userId("A@example.com"), DevLoginHandler.userId("a@example.com"));
    assertNotEquals(
        DevLoginHandler.userId("a@example.com"), DevLoginHandler.userId("b@example.com"));
  }
}
