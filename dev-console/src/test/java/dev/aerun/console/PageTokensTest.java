package dev.aerun.console;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Base64;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class PageTokensTest {
  private final AtomicLong now = new AtomicLong(1_000_000);
  private final PageTokens tokens = new PageTokens(now::get);

  @Test
  void aTokenIsValid_untilItExpires() {
    String token = tokens.issue();
    assertTrue(tokens.valid(token));
    now.addAndGet(PageTokens.LIFETIME_SECONDS);
    assertTrue(tokens.valid(token));
    now.incrementAndGet();
    assertFalse(tokens.valid(token));
  }

  @Test
  void eachPageGetsItsOwn() {
    assertNotEquals(tokens.issue(), tokens.issue());
  }

  @Test
  void forgedChangedOrForeignTokens_areNot() {
    String token = tokens.issue();
    byte[] bytes = Base64.getUrlDecoder().decode(token);
    bytes[3] ^= 1; // another issue time
    assertFalse(tokens.valid(Base64.getUrlEncoder().withoutPadding().encodeToString(bytes)));
    assertFalse(tokens.valid(new PageTokens(now::get).issue()), "another process's key");
    assertFalse(tokens.valid(null));
    assertFalse(tokens.valid(""));
    assertFalse(tokens.valid("not base64 !"));
    assertFalse(tokens.valid(token + "AA"));
    assertFalse(tokens.valid("x".repeat(1000)));
  }
}
