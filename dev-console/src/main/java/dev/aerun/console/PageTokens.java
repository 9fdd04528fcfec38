package dev.aerun.console;

import java.nio.ByteBuffer;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.function.LongSupplier;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The tokens the console's forms carry: each page rendered gets a fresh one, and an action is done
 * only with a token this process issued in the last {@link #LIFETIME_SECONDS}. A page of another
 * origin cannot read one (it cannot read the console's pages), so it cannot make the developer's
 * browser post an action. A token is {@code issued-at || nonce || HMAC-SHA256(key, issued-at ||
 * nonce)} (cut to 16 bytes), the key random per process: nothing is stored, and a restart ends
 * every token.
 */
final class PageTokens {
  static final long LIFETIME_SECONDS = 12 * 3600;

  private static final int NONCE = 16;
  private static final int MAC = 16;
  private static final SecureRandom RANDOM = new SecureRandom();

  private final SecretKeySpec key;
  private final LongSupplier nowSeconds;

  PageTokens() {
    this(() -> System.currentTimeMillis() / 1000);
  }

  PageTokens(LongSupplier nowSeconds) {
    byte[] secret = new byte[32];
    RANDOM.nextBytes(secret);
    this.key = new SecretKeySpec(secret, "HmacSHA256");
    this.nowSeconds = nowSeconds;
  }

  /** A new token, for one page. */
  String issue() {
    byte[] body = new byte[8 + NONCE];
    ByteBuffer.wrap(body).putLong(nowSeconds.getAsLong());
    byte[] nonce = new byte[NONCE];
    RANDOM.nextBytes(nonce);
    System.arraycopy(nonce, 0, body, 8, NONCE);
    byte[] token = Arrays.copyOf(body, body.length + MAC);
    System.arraycopy(mac(body), 0, token, body.length, MAC);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(token);
  }

  /** Whether {@code token} was issued by this process and has not expired. */
  boolean valid(String token) {
    if (token == null || token.length() > 128) {
      return false;
    }
    byte[] bytes;
    try {
      bytes = Base64.getUrlDecoder().decode(token);
    } catch (IllegalArgumentException e) {
      return false;
    }
    if (bytes.length != 8 + NONCE + MAC) {
      return false;
    }
    byte[] body = Arrays.copyOf(bytes, 8 + NONCE);
    byte[] given = Arrays.copyOfRange(bytes, 8 + NONCE, bytes.length);
    if (!MessageDigest.isEqual(mac(body), given)) {
      return false;
    }
    long age = nowSeconds.getAsLong() - ByteBuffer.wrap(body).getLong();
    return age >= -60 && age <= LIFETIME_SECONDS;
  }

  private byte[] mac(byte[] body) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(key);
      return Arrays.copyOf(mac.doFinal(body), MAC);
    } catch (NoSuchAlgorithmException | InvalidKeyException e) {
      throw new IllegalStateException(e);
    }
  }
}
