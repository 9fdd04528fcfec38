package dev.aerun.stage.oci;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads the regular files of a tar stream into memory by name: enough for an image archive's
 * metadata and blobs (the images this project writes; PAX {@code path} records are honoured).
 */
public final class TarReader {
  private TarReader() {}

  /** Calls {@code sink} with each regular file's name and content stream. */
  public static void forEachFile(InputStream in, FileSink sink) throws IOException {
    String paxPath = null;
    byte[] header = new byte[512];
    while (true) {
      if (in.readNBytes(header, 0, 512) < 512 || isZero(header)) {
        return;
      }
      String name = string(header, 0, 100);
      String prefix = string(header, 345, 155);
      if (!prefix.isEmpty()) {
        name = prefix + "/" + name;
      }
      long size =
          Long.parseLong(
              string(header, 124, 12).trim().isEmpty() ? "0" : string(header, 124, 12).trim(), 8);
      char type = (char) header[156];
      long padded = (size + 511) / 512 * 512;
      if (type == 'x') {
        byte[] pax = in.readNBytes((int) size);
        in.skipNBytes(padded - size);
        paxPath = paxValue(new String(pax, StandardCharsets.UTF_8), "path");
        continue;
      }
      if (paxPath != null) {
        name = paxPath;
        paxPath = null;
      }
      if (type == '0' || type == 0) {
        BoundedInputStream content = new BoundedInputStream(in, size);
        sink.accept(name, size, content);
        content.skipNBytes(content.remaining);
        in.skipNBytes(padded - size);
      } else {
        in.skipNBytes(padded);
      }
    }
  }

  /** Reads every regular file into memory. */
  public static Map<String, byte[]> readAll(InputStream in) throws IOException {
    Map<String, byte[]> files = new LinkedHashMap<>();
    forEachFile(in, (name, size, content) -> files.put(name, content.readAllBytes()));
    return files;
  }

  /** Receives one file of a tar stream; {@code content} ends with the file. */
  @FunctionalInterface
  public interface FileSink {
    void accept(String name, long size, InputStream content) throws IOException;
  }

  private static String paxValue(String records, String key) {
    for (String line : records.split("\n")) {
      int space = line.indexOf(' ');
      int eq = line.indexOf('=');
      if (space > 0 && eq > space && line.substring(space + 1, eq).equals(key)) {
        return line.substring(eq + 1);
      }
    }
    return null;
  }

  private static boolean isZero(byte[] block) {
    for (byte b : block) {
      if (b != 0) {
        return false;
      }
    }
    return true;
  }

  private static String string(byte[] h, int offset, int length) {
    int end = offset;
    while (end < offset + length && h[end] != 0) {
      end++;
    }
    return new String(h, offset, end - offset, StandardCharsets.UTF_8);
  }

  private static final class BoundedInputStream extends InputStream {
    private final InputStream in;
    private long remaining;

    BoundedInputStream(InputStream in, long size) {
      this.in = in;
      this.remaining = size;
    }

    @Override
    public int read() throws IOException {
      if (remaining <= 0) {
        return -1;
      }
      int b = in.read();
      if (b >= 0) {
        remaining--;
      }
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (remaining <= 0) {
        return -1;
      }
      int n = in.read(b, off, (int) Math.min(len, remaining));
      if (n > 0) {
        remaining -= n;
      }
      return n;
    }

    @Override
    public void close() {
      // The archive stream stays open for the next entry.
    }
  }
}
