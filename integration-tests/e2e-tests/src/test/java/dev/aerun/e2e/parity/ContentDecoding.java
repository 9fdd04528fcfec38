package dev.aerun.e2e.parity;

import com.aayushatharva.brotli4j.Brotli4jLoader;
import com.aayushatharva.brotli4j.decoder.BrotliInputStream;
import com.github.luben.zstd.ZstdInputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.zip.GZIPInputStream;

/** The content codings the runtime answers with, decoded by their own libraries. */
final class ContentDecoding {
  private ContentDecoding() {}

  static boolean decodes(String encoding) {
    return encoding != null
        && switch (encoding.trim().toLowerCase(Locale.ROOT)) {
          case "gzip", "br", "zstd" -> true;
          default -> false;
        };
  }

  /** {@code body} decoded from {@code encoding} (one of those {@link #decodes} accepts). */
  static byte[] decode(String encoding, byte[] body) {
    try (InputStream in = stream(encoding.trim().toLowerCase(Locale.ROOT), body)) {
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException("not a " + encoding + " body", e);
    }
  }

  private static InputStream stream(String encoding, byte[] body) throws IOException {
    ByteArrayInputStream bytes = new ByteArrayInputStream(body);
    return switch (encoding) {
      case "gzip" -> new GZIPInputStream(bytes);
      case "br" -> {
        Brotli4jLoader.ensureAvailability();
        yield new BrotliInputStream(bytes);
      }
      case "zstd" -> new ZstdInputStream(bytes);
      default -> throw new IllegalArgumentException(encoding);
    };
  }
}
