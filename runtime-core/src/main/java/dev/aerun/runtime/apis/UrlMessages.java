package dev.aerun.runtime.apis;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The Users service's two local calls in its protobuf wire format: {@code CreateLoginURL} and
 * {@code CreateLogoutURL} take the destination URL in field 1 and answer the URL in field 1. Just
 * enough of the format to read one string field and write one; other fields are skipped.
 */
final class UrlMessages {
  private UrlMessages() {}

  /** Field 1 of {@code message} as UTF-8 text, or "" when absent. */
  static String destination(byte[] message) {
    int at = 0;
    while (at < message.length) {
      long key = 0;
      int shift = 0;
      int b;
      do {
        b = message[at++] & 0xff;
        key |= (long) (b & 0x7f) << shift;
        shift += 7;
      } while ((b & 0x80) != 0);
      int field = (int) (key >>> 3);
      int wireType = (int) (key & 7);
      switch (wireType) {
        case 0 -> {
          while ((message[at++] & 0x80) != 0) {}
        }
        case 1 -> at += 8;
        case 5 -> at += 4;
        case 2 -> {
          int length = 0;
          shift = 0;
          do {
            b = message[at++] & 0xff;
            length |= (b & 0x7f) << shift;
            shift += 7;
          } while ((b & 0x80) != 0);
          if (field == 1) {
            return new String(message, at, length, StandardCharsets.UTF_8);
          }
          at += length;
        }
        default -> throw new IllegalArgumentException("unexpected wire type " + wireType);
      }
    }
    return "";
  }

  /** A message with {@code url} as its field 1. */
  static byte[] withUrl(String url) {
    byte[] text = url.getBytes(StandardCharsets.UTF_8);
    ByteArrayOutputStream out = new ByteArrayOutputStream(text.length + 6);
    out.write(0x0a); // field 1, length-delimited
    int length = text.length;
    while (length >= 0x80) {
      out.write((length & 0x7f) | 0x80);
      length >>>= 7;
    }
    out.write(length);
    out.write(text, 0, text.length);
    return out.toByteArray();
  }
}
