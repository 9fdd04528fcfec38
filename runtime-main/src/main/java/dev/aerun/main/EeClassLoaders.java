package dev.aerun.main;

import dev.aerun.appengine.descriptor.EeVersion;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The class loader holding one EE version's Jetty jars and its {@code WebappHost}. The EE8, EE10
 * and EE11 JSP stacks cannot share one classpath, so the packaged runtime keeps each in its own
 * folder beside the runtime jar ({@code lib/ee8}, {@code lib/ee10}, {@code lib/ee11}) and loads it
 * in a child of the common classpath. Being a {@link URLClassLoader} also lets Jetty find the
 * container's JSTL jar to scan for tag libraries.
 */
final class EeClassLoaders {

  /**
   * The jars of the JSP stack in {@code lib/ee8}, {@code lib/ee10} and {@code lib/ee11}: Jasper,
   * the Eclipse compiler, EL, JSTL (Glassfish's wasp on ee11) and their APIs, and Jetty's glue for
   * them. Left out for an app without JSP, whose webapp never starts JSP support: every jar on a
   * class path costs heap for its directory, as Jetty's service lookups open them all.
   */
  static final List<String> JSP_JAR_PREFIXES =
      List.of(
          "ecj-",
          "mortbay-apache-jsp-",
          "mortbay-apache-el-",
          "jetty-ee8-apache-jsp-",
          "jetty-ee10-apache-jsp-",
          "jetty-ee11-apache-jsp-",
          "jetty-ee8-glassfish-jstl-",
          "jetty-ee10-glassfish-jstl-",
          "jetty-ee11-glassfish-jstl-",
          "wasp-",
          "javax.servlet.jsp.jstl-",
          "jakarta.servlet.jsp.jstl-",
          "jakarta.servlet.jsp-api-",
          "jakarta.el-api-");

  /**
   * Returns a new loader over {@code lib/<ee>} beside the running runtime jar (without the JSP
   * stack unless {@code jsp}), or, when there is no such folder (an IDE or test classpath, which
   * already holds the EE jars), this class's loader.
   *
   * @throws UncheckedIOException if the folder exists but cannot be listed
   */
  static ClassLoader forVersion(EeVersion ee, boolean jsp) {
    return forVersion(runtimeHome(), ee, jsp);
  }

  /**
   * {@link #forVersion(EeVersion, boolean)} for the runtime jar's directory {@code runtimeHome}.
   */
  static ClassLoader forVersion(Optional<Path> runtimeHome, EeVersion ee, boolean jsp) {
    ClassLoader own = EeClassLoaders.class.getClassLoader();
    Optional<Path> folder = runtimeHome.flatMap(home -> eeFolder(home, ee));
    if (folder.isEmpty()) {
      return own;
    }
    return new URLClassLoader(
        "aerun-" + ee.name().toLowerCase(Locale.ROOT), jarUrls(folder.get(), jsp), own);
  }

  /** Whether {@code jarName} belongs to the JSP stack (see {@link #JSP_JAR_PREFIXES}). */
  static boolean isJspJar(String jarName) {
    return JSP_JAR_PREFIXES.stream().anyMatch(jarName::startsWith);
  }

  /** {@code home/lib/<ee>} if it is a directory. */
  static Optional<Path> eeFolder(Path home, EeVersion ee) {
    Path folder = home.resolve("lib").resolve(ee.name().toLowerCase(Locale.ROOT));
    return Files.isDirectory(folder) ? Optional.of(folder) : Optional.empty();
  }

  /**
   * The {@code .jar} files directly in {@code folder}, sorted by name; the JSP stack's if {@code
   * jsp}.
   */
  static URL[] jarUrls(Path folder, boolean jsp) {
    try {
      List<URL> urls = new ArrayList<>();
      for (Path jar : jars(folder)) {
        if (jsp || !isJspJar(jar.getFileName().toString())) {
          urls.add(jar.toUri().toURL());
        }
      }
      return urls.toArray(URL[]::new);
    } catch (MalformedURLException e) {
      throw new IllegalStateException("Cannot build a URL for a jar in " + folder, e);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot list " + folder, e);
    }
  }

  /** The {@code .jar} files directly in {@code folder}, sorted by name. */
  static List<Path> jars(Path folder) throws IOException {
    try (Stream<Path> files = Files.list(folder)) {
      return files
          .filter(f -> f.getFileName().toString().endsWith(".jar") && Files.isRegularFile(f))
          .sorted()
          .toList();
    }
  }

  /** The directory holding the runtime jar (or, from an IDE, the classes directory's parent). */
  static Optional<Path> runtimeHome() {
    try {
      var source = EeClassLoaders.class.getProtectionDomain().getCodeSource();
      if (source == null || source.getLocation() == null) {
        return Optional.empty();
      }
      return Optional.ofNullable(Path.of(source.getLocation().toURI()).getParent());
    } catch (URISyntaxException | IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  private EeClassLoaders() {}
}
