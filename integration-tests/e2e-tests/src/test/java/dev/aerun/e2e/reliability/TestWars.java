package dev.aerun.e2e.reliability;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

/**
 * WARs the tests build: a sample app's entries plus hostile or bulky ones, written with the JDK's
 * own zip writer, which stores any entry name it is given.
 */
final class TestWars {
  private final Path base;
  private final Map<String, byte[]> extra = new LinkedHashMap<>();
  private int fillerEntries;
  private long zeroBytes;
  private String zeroName;

  private TestWars(Path base) {
    this.base = base;
  }

  /** Starts from the entries of {@code war}. */
  static TestWars from(Path war) {
    return new TestWars(war);
  }

  /** One more entry named exactly {@code name}. */
  TestWars entry(String name, String content) {
    extra.put(name, content.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    return this;
  }

  /** {@code count} more small entries under {@code filler/}. */
  TestWars filler(int count) {
    this.fillerEntries = count;
    return this;
  }

  /** One entry of {@code bytes} zeros: a few kilobytes compressed, however large unpacked. */
  TestWars zeros(String name, long bytes) {
    this.zeroName = name;
    this.zeroBytes = bytes;
    return this;
  }

  /** Writes the WAR to {@code target}. */
  Path write(Path target) throws IOException {
    Files.createDirectories(target.getParent());
    try (ZipFile source = new ZipFile(base.toFile());
        ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(target))) {
      Enumeration<? extends ZipEntry> entries = source.entries();
      while (entries.hasMoreElements()) {
        ZipEntry entry = entries.nextElement();
        out.putNextEntry(new ZipEntry(entry.getName()));
        try (InputStream in = source.getInputStream(entry)) {
          in.transferTo(out);
        }
        out.closeEntry();
      }
      for (int i = 0; i < fillerEntries; i++) {
        out.putNextEntry(new ZipEntry("filler/" + (i / 1000) + "/f" + i + ".txt"));
        out.write(("filler " + i).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        out.closeEntry();
      }
      if (zeroName != null) {
        out.putNextEntry(new ZipEntry(zeroName));
        writeZeros(out, zeroBytes);
        out.closeEntry();
      }
      for (Map.Entry<String, byte[]> e : extra.entrySet()) {
        out.putNextEntry(new ZipEntry(e.getKey()));
        out.write(e.getValue());
        out.closeEntry();
      }
    }
    return target;
  }

  private static void writeZeros(OutputStream out, long bytes) throws IOException {
    byte[] chunk = new byte[64 * 1024];
    for (long left = bytes; left > 0; left -= chunk.length) {
      out.write(chunk, 0, (int) Math.min(chunk.length, left));
    }
  }

  /** The runtime's working directories ({@code aerun-webapp-*}) in {@code dir}. */
  static java.util.List<Path> workDirectories(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return java.util.List.of();
    }
    try (var files = Files.list(dir)) {
      return files.filter(p -> p.getFileName().toString().startsWith("aerun-webapp-")).toList();
    }
  }
}
