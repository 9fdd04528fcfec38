package dev.aerun.main;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Enumeration;
import java.util.function.BooleanSupplier;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Unpacks a {@code .war} into a directory of the runtime's own, so that Jetty only ever sees an
 * exploded app. Every entry is checked before anything of it is written:
 *
 * <ul>
 *   <li>its name, with {@code /} and {@code \} both taken as separators, must stay inside the
 *       target once {@code .} and {@code ..} are resolved: no absolute path, no drive letter
 *       ({@code C:}), no NUL;
 *   <li>the archive may hold at most {@link Limits#maxEntries()} entries, and unpack to at most
 *       {@link Limits#maxBytes()} bytes in total, counted as they are written (a declared size can
 *       lie).
 * </ul>
 *
 * <p>A refused archive ends in a {@link Refused} naming the entry and what is wrong with it.
 */
final class WarUnpacker {
  /** The default bound on the bytes a WAR unpacks to: 2 GiB. */
  static final long DEFAULT_MAX_BYTES = 2L * 1024 * 1024 * 1024;

  /** The default bound on a WAR's entries. */
  static final int DEFAULT_MAX_ENTRIES = 100_000;

  /**
   * How much a WAR may unpack to.
   *
   * @param maxBytes total bytes of all its files ({@code --max-war-size})
   * @param maxEntries entries, files and directories ({@code --max-war-entries})
   */
  record Limits(long maxBytes, int maxEntries) {
    static final Limits DEFAULTS = new Limits(DEFAULT_MAX_BYTES, DEFAULT_MAX_ENTRIES);
  }

  /** The archive was refused; the message names the entry and why. */
  static final class Refused extends IOException {
    private static final long serialVersionUID = 1L;

    Refused(String message) {
      super(message);
    }
  }

  private WarUnpacker() {}

  /**
   * Unpacks {@code war} into {@code target} (created if missing).
   *
   * @param stopped checked before each entry: true ends the unpacking with an {@link IOException}
   *     (the runtime is shutting down)
   * @throws Refused if an entry's name or the archive's size breaks a rule above; what was written
   *     so far stays in {@code target} for the caller to delete
   * @throws IOException if the archive cannot be read or a file cannot be written
   */
  static void unpack(Path war, Path target, Limits limits, BooleanSupplier stopped)
      throws IOException {
    Path root = Files.createDirectories(target).toAbsolutePath().normalize();
    try (ZipFile zip = new ZipFile(war.toFile())) {
      if (zip.size() > limits.maxEntries()) {
        throw new Refused(
            "it has "
                + zip.size()
                + " entries, more than the "
                + limits.maxEntries()
                + " allowed (--max-war-entries raises the limit)");
      }
      byte[] buffer = new byte[64 * 1024];
      long written = 0;
      Enumeration<? extends ZipEntry> entries = zip.entries();
      while (entries.hasMoreElements()) {
        if (stopped.getAsBoolean()) {
          throw new IOException("unpacking stopped: the runtime is shutting down");
        }
        ZipEntry entry = entries.nextElement();
        Path file = resolve(root, entry.getName());
        if (entry.isDirectory() || file.equals(root)) {
          Files.createDirectories(file);
          continue;
        }
        Files.createDirectories(file.getParent());
        try (InputStream in = zip.getInputStream(entry);
            OutputStream out = Files.newOutputStream(file)) {
          for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
            written += n;
            if (written > limits.maxBytes()) {
              throw new Refused(
                  "it unpacks to more than "
                      + limits.maxBytes()
                      + " bytes, reached at entry \""
                      + printable(entry.getName())
                      + "\" (--max-war-size raises the limit)");
            }
            out.write(buffer, 0, n);
          }
        }
      }
    }
  }

  /**
   * Where the entry {@code name} goes under {@code root}.
   *
   * @throws Refused if the name is not a relative path that stays inside {@code root}
   */
  static Path resolve(Path root, String name) throws Refused {
    String why = refusal(name);
    if (why != null) {
      throw new Refused("entry \"" + printable(name) + "\" " + why);
    }
    Path file = root.resolve(String.join("/", segments(name))).normalize();
    if (!file.startsWith(root)) {
      // Unreachable with the checks above; kept so no later change can write outside.
      throw new Refused("entry \"" + printable(name) + "\" leaves the app directory");
    }
    return file;
  }

  /** Why an entry name is refused, or null if it is fine. */
  static String refusal(String name) {
    if (name.isEmpty()) {
      return "has an empty name";
    }
    if (name.indexOf('\0') >= 0) {
      return "has a NUL character in its name";
    }
    if (name.startsWith("/") || name.startsWith("\\")) {
      return "is an absolute path";
    }
    if (name.length() >= 2 && name.charAt(1) == ':' && Character.isLetter(name.charAt(0))) {
      return "starts with a drive letter";
    }
    if (segments(name) == null) {
      return "leaves the app directory (a \"..\" goes above it)";
    }
    return null;
  }

  /**
   * The name's path segments, {@code /} and {@code \} both separators, with {@code .} dropped and
   * {@code ..} applied; null if a {@code ..} goes above the start.
   */
  private static Deque<String> segments(String name) {
    Deque<String> segments = new ArrayDeque<>();
    for (String segment : name.split("[/\\\\]")) {
      if (segment.isEmpty() || segment.equals(".")) {
        continue;
      }
      if (segment.equals("..")) {
        if (segments.pollLast() == null) {
          return null;
        }
        continue;
      }
      segments.addLast(segment);
    }
    return segments;
  }

  /** The name as a message may show it: control characters as {@code ?}. */
  private static String printable(String name) {
    StringBuilder shown = new StringBuilder(Math.min(name.length(), 300));
    for (int i = 0; i < name.length() && i < 300; i++) {
      char c = name.charAt(i);
      shown.append(Character.isISOControl(c) ? '?' : c);
    }
    return name.length() > 300 ? shown + "..." : shown.toString();
  }
}
