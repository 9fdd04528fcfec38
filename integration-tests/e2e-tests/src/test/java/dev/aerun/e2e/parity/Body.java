package dev.aerun.e2e.parity;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.zip.GZIPOutputStream;

/**
 * A request body as the corpus declares it. Large bodies are generated while they are sent, never
 * held in memory: the bytes are a fixed pseudo-random sequence, so every configuration receives
 * exactly the same ones.
 */
sealed interface Body {

  /** No body and no framing header. */
  Body NONE = new None();

  /** {@code n} bytes with a {@code Content-Length} header. */
  static Body fixed(long n) {
    return new Generated(n, false, false);
  }

  /** {@code n} bytes sent with {@code Transfer-Encoding: chunked}, in chunks of varied sizes. */
  static Body chunked(long n) {
    return new Generated(n, true, false);
  }

  /**
   * A {@code Content-Length} of {@code n} but no bytes: for a declared breach of the body limit,
   * which the server must refuse before reading (sending 33 MiB it will never read only makes the
   * connection reset race the answer).
   */
  static Body declaredOnly(long n) {
    return new Generated(n, false, true);
  }

  /** These bytes with a {@code Content-Length} header. */
  static Body bytes(byte[] content) {
    return new Bytes(content, false);
  }

  /** This text (UTF-8) with a {@code Content-Length} header. */
  static Body text(String content) {
    return bytes(content.getBytes(StandardCharsets.UTF_8));
  }

  /** This text, gzip-compressed, with a {@code Content-Length} header. */
  static Body gzip(String content) {
    return gzip(content.getBytes(StandardCharsets.UTF_8));
  }

  /** This text, gzip-compressed, sent chunked. */
  static Body gzipChunked(String content) {
    return new Bytes(((Bytes) gzip(content)).content(), true);
  }

  /** These bytes, gzip-compressed, with a {@code Content-Length} header. */
  static Body gzip(byte[] content) {
    ByteArrayOutputStream compressed = new ByteArrayOutputStream();
    try (GZIPOutputStream out = new GZIPOutputStream(compressed)) {
      out.write(content);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes(compressed.toByteArray());
  }

  /** This text (UTF-8) sent chunked. */
  static Body chunkedText(String content) {
    return new Bytes(content.getBytes(StandardCharsets.UTF_8), true);
  }

  /** Whether the body goes out with {@code Transfer-Encoding: chunked}. */
  boolean chunkedEncoding();

  /** The length of the content (before chunk framing), or -1 for none. */
  long length();

  /**
   * Writes the content (with chunk framing if chunked), updating {@code digest} with the content
   * bytes actually written.
   */
  void writeTo(OutputStream out, MessageDigest digest) throws IOException;

  /** A short description for test reports. */
  String describe();

  /** No body. */
  record None() implements Body {
    @Override
    public boolean chunkedEncoding() {
      return false;
    }

    @Override
    public long length() {
      return -1;
    }

    @Override
    public void writeTo(OutputStream out, MessageDigest digest) {}

    @Override
    public String describe() {
      return "no body";
    }
  }

  /** Bytes given up front. */
  record Bytes(byte[] content, boolean chunkedEncoding) implements Body {
    @Override
    public long length() {
      return content.length;
    }

    @Override
    public void writeTo(OutputStream out, MessageDigest digest) throws IOException {
      if (!chunkedEncoding) {
        out.write(content);
        digest.update(content);
        return;
      }
      // Two chunks when there is anything to split, to exercise chunk reassembly.
      int half = content.length / 2;
      writeChunk(out, content, 0, half);
      writeChunk(out, content, half, content.length - half);
      out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      digest.update(content);
    }

    @Override
    public String describe() {
      return content.length + " bytes" + (chunkedEncoding ? " chunked" : "");
    }
  }

  /** Pseudo-random bytes generated while sending. */
  record Generated(long length, boolean chunkedEncoding, boolean declaredOnly) implements Body {
    /** Chunk sizes cycled through, so chunk boundaries fall everywhere relative to buffers. */
    private static final int[] CHUNK_SIZES = {1, 17, 4096, 65_536, 100_000, 8191};

    @Override
    public void writeTo(OutputStream out, MessageDigest digest) throws IOException {
      if (declaredOnly) {
        return;
      }
      byte[] block = new byte[100_000];
      long seed = 0x5DEECE66DL;
      long written = 0;
      int nextChunk = 0;
      while (written < length) {
        int n =
            (int)
                Math.min(
                    length - written,
                    chunkedEncoding ? CHUNK_SIZES[nextChunk++ % CHUNK_SIZES.length] : block.length);
        for (int i = 0; i < n; i++) {
          // xorshift: cheap, deterministic, and not compressible by accident.
          seed ^= seed << 13;
          seed ^= seed >>> 7;
          seed ^= seed << 17;
          block[i] = (byte) seed;
        }
        if (chunkedEncoding) {
          writeChunk(out, block, 0, n);
        } else {
          out.write(block, 0, n);
        }
        digest.update(block, 0, n);
        written += n;
      }
      if (chunkedEncoding) {
        out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      }
    }

    @Override
    public String describe() {
      return length
          + " bytes"
          + (chunkedEncoding ? " chunked" : "")
          + (declaredOnly ? " (declared, not sent)" : "");
    }
  }

  private static void writeChunk(OutputStream out, byte[] bytes, int offset, int length)
      throws IOException {
    if (length == 0) {
      return; // a zero-size chunk would end the body
    }
    out.write((Integer.toHexString(length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
    out.write(bytes, offset, length);
    out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
  }
}
