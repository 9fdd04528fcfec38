package dev.aerun.testing;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Enumeration;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import javax.tools.ToolProvider;

/**
 * Exploded copies of a built sample app, as built or with one edit (to its {@code
 * appengine-web.xml} or another file): a variant of an app without another module to build.
 */
public final class AppCopies {
  private AppCopies() {}

  /**
   * Unpacks {@code war} into {@code dir} and replaces {@code from} by {@code to} in its descriptor.
   *
   * @throws IllegalStateException if the descriptor does not contain {@code from}
   */
  public static Path withDescriptorEdit(Path war, Path dir, String from, String to)
      throws IOException {
    return withEdit(war, dir, "WEB-INF/appengine-web.xml", from, to);
  }

  /**
   * Unpacks {@code war} into {@code dir} and replaces {@code from} by {@code to} in its text file
   * {@code entry}.
   *
   * @throws IllegalStateException if the file does not contain {@code from}
   */
  public static Path withEdit(Path war, Path dir, String entry, String from, String to)
      throws IOException {
    unpack(war, dir);
    Path file = dir.resolve(entry);
    String text = Files.readString(file);
    if (!text.contains(from)) {
      throw new IllegalStateException(file + " has no " + from + ":\n" + text);
    }
    Files.writeString(file, text.replace(from, to));
    return dir;
  }

  /**
   * Unpacks {@code war} into {@code dir} and marks the class {@code className} as compiled for Java
   * {@code feature} (the class file's major version), as if built by a newer compiler.
   */
  public static Path withClassForJava(Path war, Path dir, String className, int feature)
      throws IOException {
    unpack(war, dir);
    Path file = dir.resolve("WEB-INF/classes/" + className.replace('.', '/') + ".class");
    byte[] bytes = Files.readAllBytes(file);
    int major = feature + 44;
    bytes[6] = (byte) (major >> 8);
    bytes[7] = (byte) major;
    Files.write(file, bytes);
    return dir;
  }

  /**
   * Unpacks {@code war} into {@code dir}, as built: each file with its modification time in the
   * war, so that two unpacked copies serve the same {@code Last-Modified}.
   */
  public static Path explode(Path war, Path dir) throws IOException {
    unpack(war, dir);
    return dir;
  }

  /**
   * The sample apps' {@code dev.aerun.sample.HelloServlet} answering {@code text} at {@code
   * /hello}, compiled in {@code work} against the jakarta servlet API of the runtime at {@code
   * runtimeJar} (its {@code lib/ee10}): a new class file for an exploded app, as a developer's edit
   * would give.
   */
  public static byte[] helloServlet(String text, Path runtimeJar, Path work) throws IOException {
    Path source = work.resolve("src/dev/aerun/sample/HelloServlet.java");
    Files.createDirectories(source.getParent());
    Files.writeString(
        source,
        "package dev.aerun.sample;\n"
            + "@jakarta.servlet.annotation.WebServlet(\"/hello\")\n"
            + "public class HelloServlet extends jakarta.servlet.http.HttpServlet {\n"
            + "  @Override protected void doGet(jakarta.servlet.http.HttpServletRequest q,"
            + " jakarta.servlet.http.HttpServletResponse r) throws java.io.IOException {\n"
            + "    r.setContentType(\"text/plain;charset=utf-8\");\n"
            + "    r.getWriter().print(\""
            + text
            + "\");\n  }\n}\n");
    Path out = Files.createDirectories(work.resolve("classes"));
    Path lib = runtimeJar.toAbsolutePath().getParent().resolve("lib/ee10");
    Path api;
    try (Stream<Path> jars = Files.list(lib)) {
      api =
          jars.filter(j -> j.getFileName().toString().startsWith("jakarta.servlet-api-"))
              .findFirst()
              .orElseThrow(() -> new IOException("no jakarta.servlet-api in " + lib));
    }
    int result =
        ToolProvider.getSystemJavaCompiler()
            .run(null, null, null, "-d", out.toString(), "-cp", api.toString(), source.toString());
    if (result != 0) {
      throw new IOException("javac failed on " + source);
    }
    return Files.readAllBytes(out.resolve("dev/aerun/sample/HelloServlet.class"));
  }

  private static void unpack(Path war, Path dir) throws IOException {
    try (ZipFile zip = new ZipFile(war.toFile())) {
      Enumeration<? extends ZipEntry> entries = zip.entries();
      while (entries.hasMoreElements()) {
        ZipEntry entry = entries.nextElement();
        Path target = dir.resolve(entry.getName()).normalize();
        if (!target.startsWith(dir)) {
          throw new IllegalStateException("entry outside the app: " + entry.getName());
        }
        if (entry.isDirectory()) {
          Files.createDirectories(target);
          continue;
        }
        Files.createDirectories(target.getParent());
        try (InputStream in = zip.getInputStream(entry)) {
          Files.copy(in, target);
        }
        if (entry.getTime() >= 0) {
          Files.setLastModifiedTime(target, FileTime.fromMillis(entry.getTime()));
        }
      }
    }
  }
}
