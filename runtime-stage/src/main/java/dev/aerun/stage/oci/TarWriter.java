package dev.aerun.stage.oci;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Writes a POSIX tar stream in which nothing depends on when or by whom it was written: every entry
 * has modification time 0, numeric owners only (no user or group names) and the mode it is given.
 * Names or link targets longer than the ustar fields get a PAX extended header. Entries are written
 * in the order the caller gives: callers sort them, so the same tree gives the same bytes.
 */
public final class TarWriter implements Closeable {
  private static final int BLOCK = 512;
  private final OutputStream out;

  public TarWriter(OutputStream out) {
    this.out = out;
  }

  /** A directory entry; {@code name} without a trailing slash. */
  public void directory(String name, int mode, int uid, int gid) throws IOException {
    header(name + "/", mode, uid, gid, 0, '5', "");
  }

  /** A regular file with {@code content}. */
  public void file(String name, int mode, int uid, int gid, byte[] content) throws IOException {
    header(name, mode, uid, gid, content.length, '0', "");
    out.write(content);
    pad(content.length);
  }

  /** A regular file of {@code size} bytes read from {@code content}. */
  public void file(String name, int mode, int uid, int gid, long size, InputStream content)
      throws IOException {
    header(name, mode, uid, gid, size, '0', "");
    long copied = content.transferTo(out);
    if (copied != size) {
      throw new IOException(name + ": expected " + size + " bytes, read " + copied);
    }
    pad(size);
  }

  /** A symbolic link to {@code target}. */
  public void symlink(String name, String target, int uid, int gid) throws IOException {
    header(name, 0777, uid, gid, 0, '2', target);
  }

  private void header(String name, int mode, int uid, int gid, long size, char type, String link)
      throws IOException {
    byte[] nameBytes = name.getBytes(StandardCharsets.UTF_8);
    byte[] linkBytes = link.getBytes(StandardCharsets.UTF_8);
    if (nameBytes.length > 100 || linkBytes.length > 100) {
      StringBuilder pax = new StringBuilder();
      if (nameBytes.length > 100) {
        pax.append(paxRecord("path", name));
      }
      if (linkBytes.length > 100) {
        pax.append(paxRecord("linkpath", link));
      }
      byte[] paxBytes = pax.toString().getBytes(StandardCharsets.UTF_8);
      writeHeader(truncate(nameBytes), 0644, 0, 0, paxBytes.length, 'x', new byte[0]);
      out.write(paxBytes);
      pad(paxBytes.length);
    }
    writeHeader(truncate(nameBytes), mode, uid, gid, size, type, truncate(linkBytes));
  }

  /** A PAX record: its length, counted in bytes, includes the length's own digits. */
  private static String paxRecord(String key, String value) {
    int body = (" " + key + "=" + value + "\n").getBytes(StandardCharsets.UTF_8).length;
    int length = body + String.valueOf(body).length();
    if (String.valueOf(length).length() != String.valueOf(body).length()) {
      length++;
    }
    return length + " " + key + "=" + value + "\n";
  }

  private static byte[] truncate(byte[] bytes) {
    return bytes.length <= 100 ? bytes : Arrays.copyOf(bytes, 100);
  }

  private void writeHeader(
      byte[] name, int mode, int uid, int gid, long size, char type, byte[] link)
      throws IOException {
    byte[] h = new byte[BLOCK];
    System.arraycopy(name, 0, h, 0, name.length);
    octal(h, 100, 8, mode);
    octal(h, 108, 8, uid);
    octal(h, 116, 8, gid);
    octal(h, 124, 12, size);
    octal(h, 136, 12, 0); // mtime
    Arrays.fill(h, 148, 156, (byte) ' ');
    h[156] = (byte) type;
    System.arraycopy(link, 0, h, 157, link.length);
    System.arraycopy("ustar\u000000".getBytes(StandardCharsets.US_ASCII), 0, h, 257, 8);
    octal(h, 329, 8, 0); // devmajor
    octal(h, 337, 8, 0); // devminor
    long sum = 0;
    for (byte b : h) {
      sum += b & 0xff;
    }
    byte[] checksum = String.format("%06o\0 ", sum).getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(checksum, 0, h, 148, 8);
    out.write(h);
  }

  private static void octal(byte[] h, int offset, int length, long value) {
    String digits = Long.toOctalString(value);
    if (digits.length() > length - 1) {
      throw new IllegalArgumentException("value too large for a tar header: " + value);
    }
    String padded = "0".repeat(length - 1 - digits.length()) + digits;
    System.arraycopy(padded.getBytes(StandardCharsets.US_ASCII), 0, h, offset, length - 1);
    h[offset + length - 1] = 0;
  }

  private void pad(long size) throws IOException {
    int rest = (int) (size % BLOCK);
    if (rest != 0) {
      out.write(new byte[BLOCK - rest]);
    }
  }

  /** Ends the archive (two zero blocks) and flushes; does not close the underlying stream. */
  @Override
  public void close() throws IOException {
    out.write(new byte[2 * BLOCK]);
    out.flush();
  }
}
