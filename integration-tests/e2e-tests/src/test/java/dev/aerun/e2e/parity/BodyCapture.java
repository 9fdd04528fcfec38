package dev.aerun.e2e.parity;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A response body as length and SHA-256, plus the bytes themselves while they are small: 32 MiB
 * answers are compared by digest, so no test holds several copies of them. The raw client writes
 * the body into it as it arrives.
 */
final class BodyCapture extends OutputStream {
  /** Bodies up to this size are kept, to be normalised and shown in a difference. */
  static final int KEPT = 256 * 1024;

  private final MessageDigest sha256 = sha256();
  private final ByteArrayOutputStream kept = new ByteArrayOutputStream();
  private long length;
  private String hex;

  @Override
  public void write(int b) {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public void write(byte[] bytes, int offset, int count) {
    sha256.update(bytes, offset, count);
    if (length + count <= KEPT) {
      kept.write(bytes, offset, count);
    }
    length += count;
  }

  long length() {
    return length;
  }

  /** The hex SHA-256 of the whole body; no bytes may be added after the first call. */
  String sha256Hex() {
    if (hex == null) {
      hex = HexFormat.of().formatHex(sha256.digest());
    }
    return hex;
  }

  /** The body as ISO-8859-1 text (every byte one char), or null if it was too big to keep. */
  String text() {
    return length <= KEPT ? kept.toString(StandardCharsets.ISO_8859_1) : null;
  }

  static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }
}
