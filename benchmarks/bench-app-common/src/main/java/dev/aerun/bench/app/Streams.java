package dev.aerun.bench.app;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * The benchmark app's I/O, written so that the app allocates nothing per request: every copy goes
 * through one buffer per thread, every generated body comes from one shared array. What a request
 * allocates is then the server's own doing.
 */
public final class Streams {
  private static final ThreadLocal<byte[]> BUFFER = ThreadLocal.withInitial(() -> new byte[16384]);

  /** What generated bodies are made of, written as many times as needed. */
  private static final byte[] PATTERN = pattern(64 * 1024);

  private Streams() {}

  /**
   * Copies {@code in} to {@code out}. With {@code measureHeap}, once half of {@code length} bytes
   * went through (or at the end if the length is unknown), runs {@link
   * ProcessStats#measureHeapAfterGc()}: the heap then holds whatever the server keeps of this
   * request and of its response while the app is in the middle of it.
   */
  public static void echo(InputStream in, OutputStream out, long length, boolean measureHeap)
      throws IOException {
    byte[] buffer = BUFFER.get();
    long half = length > 0 ? length / 2 : Long.MAX_VALUE;
    boolean measured = !measureHeap;
    long copied = 0;
    int n;
    while ((n = in.read(buffer)) != -1) {
      out.write(buffer, 0, n);
      copied += n;
      if (!measured && copied >= half) {
        ProcessStats.measureHeapAfterGc();
        measured = true;
      }
    }
    if (!measured) {
      ProcessStats.measureHeapAfterGc();
    }
  }

  /** Reads {@code in} to its end, keeping nothing. */
  public static void drain(InputStream in) throws IOException {
    byte[] buffer = BUFFER.get();
    while (in.read(buffer) != -1) {
      // Dropped.
    }
  }

  /** Writes {@code size} bytes of a fixed pattern. */
  public static void write(OutputStream out, long size) throws IOException {
    long left = size;
    while (left > 0) {
      int n = (int) Math.min(left, PATTERN.length);
      out.write(PATTERN, 0, n);
      left -= n;
    }
  }

  /**
   * The value of {@code name=} in a raw query string as a non-negative number, or {@code fallback};
   * parsed in place, without allocating.
   */
  public static long longParameter(String query, String name, long fallback) {
    int at = find(query, name, true);
    if (at < 0) {
      return fallback;
    }
    int end = query.indexOf('&', at);
    long value = 0;
    int digits = 0;
    for (int i = at; i < (end < 0 ? query.length() : end); i++, digits++) {
      char c = query.charAt(i);
      if (c < '0' || c > '9' || value > Long.MAX_VALUE / 10 - 10) {
        return fallback;
      }
      value = value * 10 + (c - '0');
    }
    return digits == 0 ? fallback : value;
  }

  /** Whether the raw query string has the bare flag {@code name} (e.g. {@code heap}). */
  public static boolean hasFlag(String query, String name) {
    return find(query, name, false) >= 0;
  }

  /**
   * Where the value of {@code name=} starts ({@code withValue}) or where the bare flag {@code name}
   * ends in a raw query string; -1 if it has neither.
   */
  private static int find(String query, String name, boolean withValue) {
    for (int at = 0; query != null && at <= query.length(); ) {
      int end = query.indexOf('&', at);
      end = end < 0 ? query.length() : end;
      int after = at + name.length();
      if (query.startsWith(name, at)
          && (withValue ? after < end && query.charAt(after) == '=' : after == end)) {
        return withValue ? after + 1 : after;
      }
      at = end + 1;
    }
    return -1;
  }

  private static byte[] pattern(int size) {
    byte[] bytes = new byte[size];
    for (int i = 0; i < size; i++) {
      bytes[i] = (byte) ('a' + i % 26);
    }
    return bytes;
  }
}
