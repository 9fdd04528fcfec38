package dev.aerun.runtime.webapp;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipInputStream;

/**
 * Whether an app has anything for JSP to do. Starting JSP support (Jasper's initializer scans every
 * tag library, and its servlet loads on start-up) takes a large part of a webapp's start-up; an app
 * with no JSP need not pay for it.
 *
 * <p>Deliberately generous: JSP stays on if the app has a JSP or tag file ({@code .jsp}, {@code
 * .jspx}, {@code .jspf}, {@code .tag}, {@code .tagx}) or a tag library descriptor ({@code .tld})
 * anywhere, also in a jar of {@code WEB-INF/lib}; if it has precompiled JSPs ({@code
 * org/apache/jsp} classes); or if its {@code web.xml} mentions JSP at all ({@code <jsp-file>},
 * {@code <jsp-config>}, a JSP servlet). What the staged app does not contain, it cannot serve:
 * files added after start-up are not looked at.
 */
public final class JspUsage {
  private JspUsage() {}

  /** Whether the staged app (an exploded directory or a {@code .war}) needs JSP support. */
  public static boolean needsJsp(Path app) throws IOException {
    return Files.isDirectory(app) ? directoryNeedsJsp(app) : warNeedsJsp(app);
  }

  private static boolean directoryNeedsJsp(Path app) throws IOException {
    try (Stream<Path> files = Files.walk(app)) {
      return files
          .filter(Files::isRegularFile)
          .anyMatch(file -> fileNeedsJsp(app.relativize(file).toString().replace('\\', '/'), file));
    } catch (java.io.UncheckedIOException e) {
      throw e.getCause();
    }
  }

  private static boolean fileNeedsJsp(String name, Path file) {
    try {
      if (isWebXml(name)) {
        return mentionsJsp(Files.readAllBytes(file));
      }
      if (isLibraryJar(name)) {
        try (ZipFile jar = new ZipFile(file.toFile())) {
          return jar.stream().anyMatch(entry -> jarEntryNeedsJsp(entry.getName()));
        }
      }
      return nameNeedsJsp(name);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static boolean warNeedsJsp(Path war) throws IOException {
    try (ZipFile zip = new ZipFile(war.toFile())) {
      for (ZipEntry entry : zip.stream().toList()) {
        String name = entry.getName();
        if (entry.isDirectory()) {
          continue;
        }
        if (isWebXml(name)) {
          try (InputStream in = zip.getInputStream(entry)) {
            if (mentionsJsp(in.readAllBytes())) {
              return true;
            }
          }
        } else if (isLibraryJar(name)) {
          try (ZipInputStream jar = new ZipInputStream(zip.getInputStream(entry))) {
            for (ZipEntry inner = jar.getNextEntry(); inner != null; inner = jar.getNextEntry()) {
              if (jarEntryNeedsJsp(inner.getName())) {
                return true;
              }
            }
          }
        } else if (nameNeedsJsp(name)) {
          return true;
        }
      }
      return false;
    }
  }

  private static boolean isWebXml(String name) {
    return name.equalsIgnoreCase("WEB-INF/web.xml");
  }

  private static boolean isLibraryJar(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    return lower.startsWith("web-inf/lib/") && lower.endsWith(".jar");
  }

  /** A file of the app's own: a JSP or tag file, a TLD, or a precompiled JSP class. */
  static boolean nameNeedsJsp(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    return lower.endsWith(".jsp")
        || lower.endsWith(".jspx")
        || lower.endsWith(".jspf")
        || lower.endsWith(".tag")
        || lower.endsWith(".tagx")
        || lower.endsWith(".tld")
        || lower.startsWith("web-inf/classes/org/apache/jsp/");
  }

  /** In a library jar: its TLDs and tag files, its JSP resources, precompiled JSP classes. */
  static boolean jarEntryNeedsJsp(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    boolean jspFile =
        lower.endsWith(".jsp")
            || lower.endsWith(".jspx")
            || lower.endsWith(".jspf")
            || lower.endsWith(".tag")
            || lower.endsWith(".tagx");
    return (lower.startsWith("meta-inf/") && (jspFile || lower.endsWith(".tld")))
        || lower.startsWith("org/apache/jsp/");
  }

  private static boolean mentionsJsp(byte[] webXml) {
    return new String(webXml, StandardCharsets.UTF_8).toLowerCase(Locale.ROOT).contains("jsp");
  }
}
