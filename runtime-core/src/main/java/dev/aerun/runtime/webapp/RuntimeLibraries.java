package dev.aerun.runtime.webapp;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipInputStream;

/**
 * Keeps the runtime's own libraries out of the webapp, whatever the EE version.
 *
 * <p>A webapp sees the servlet environment and nothing else of the runtime: not its SLF4J, gRPC,
 * protobuf, Guava, Gson, Google Cloud libraries, its logging library or any other class of its own
 * ({@link #hiddenClasses}, on top of Jetty's own hidden classes). An app bundles what it uses, in
 * whatever version; the runtime's copies can neither clash with nor stand in for them. The jars are
 * hidden by location too, so their service files ({@code META-INF/services}) do not reach the app's
 * {@link java.util.ServiceLoader}s either.
 *
 * <p>SLF4J: an app that bundles an SLF4J provider (Logback, Log4j, slf4j-simple ...) logs where it
 * says. An app that bundles only {@code slf4j-api} (2.x) gets the runtime's {@code slf4j-jdk14}
 * provider on its own class path ({@link #slf4jProviderFor}), so its lines reach the runtime's logs
 * through {@code java.util.logging}, as the platform does.
 */
public final class RuntimeLibraries {
  /**
   * Packages of the libraries the runtime itself uses. The runtime's own classes ({@code
   * dev.aerun}) are hidden by the location of its jars instead, as a name would also hide an app's
   * classes in that package that the app's parent holds (the runtime's tests do that).
   */
  static final List<String> HIDDEN_PACKAGES =
      List.of(
          "org.slf4j.",
          "io.grpc.",
          "io.perfmark.",
          "com.google.protobuf.",
          "com.google.common.",
          "com.google.thirdparty.",
          "com.google.gson.",
          "com.google.cloud.",
          "com.google.api.",
          "com.google.logging.",
          "com.google.rpc.",
          "com.google.type.",
          "com.google.longrunning.",
          "com.google.geo.",
          "com.google.errorprone.",
          "com.google.j2objc.",
          "com.fasterxml.jackson.",
          "org.checkerframework.",
          "org.codehaus.mojo.animal_sniffer.");

  /**
   * {@link #HIDDEN_PACKAGES} and the runtime's own package, as entry name prefixes (before {@link
   * #RUNTIME_JARS}, which needs them).
   */
  private static final String[] HIDDEN_PREFIXES =
      Stream.concat(HIDDEN_PACKAGES.stream(), Stream.of("dev.aerun."))
          .map(p -> p.replace('.', '/'))
          .toArray(String[]::new);

  private static final String SLF4J_API_CLASS = "org/slf4j/LoggerFactory.class";
  private static final String SLF4J_PROVIDER_SERVICE =
      "META-INF/services/org.slf4j.spi.SLF4JServiceProvider";
  private static final String RUNTIME_SLF4J_PROVIDER = "org.slf4j.jul.JULServiceProvider";

  private RuntimeLibraries() {}

  /**
   * The classes a webapp must not see from its parent: {@link #HIDDEN_PACKAGES}, and by location
   * every jar on the runtime's own class path that holds classes of those packages or of the
   * runtime itself, except those of the servlet, JSP and EL APIs, which are the webapp's
   * environment: patterns for a {@code ClassMatcher} given to {@code
   * WebAppContext.addHiddenClassMatcher} (ee8: {@code addServerClassMatcher}).
   */
  public static String[] hiddenClasses() {
    List<String> patterns = new ArrayList<>(HIDDEN_PACKAGES);
    RUNTIME_JARS.forEach(jar -> patterns.add(jar.toString()));
    return patterns.toArray(String[]::new);
  }

  /** The jars of the application class loader, found once. */
  private static final Set<URI> RUNTIME_JARS = runtimeJars();

  private static Set<URI> runtimeJars() {
    ClassLoader system = ClassLoader.getSystemClassLoader();
    Set<URI> jars = new LinkedHashSet<>();
    try {
      for (URL manifest : Collections.list(system.getResources("META-INF/MANIFEST.MF"))) {
        jarOf(manifest).filter(RuntimeLibraries::holdsHiddenClasses).ifPresent(jars::add);
      }
      // The webapp's environment stays visible wherever its API jars are.
      for (String api :
          List.of(
              "jakarta/servlet/Servlet.class",
              "javax/servlet/Servlet.class",
              "jakarta/servlet/jsp/JspPage.class",
              "javax/servlet/jsp/JspPage.class",
              "jakarta/el/ELContext.class",
              "javax/el/ELContext.class")) {
        for (URL url : Collections.list(system.getResources(api))) {
          jarOf(url).ifPresent(jars::remove);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list the runtime's class path", e);
    }
    return Collections.unmodifiableSet(jars);
  }

  /** Whether the jar has classes of {@link #HIDDEN_PACKAGES} or of the runtime itself. */
  static boolean holdsHiddenClasses(URI jar) {
    // Runs at start-up over every jar of the class path (about 12,000 entries): the prefixes are
    // tested once per directory, not once per entry, as a jar lists a directory's entries together.
    try (ZipFile zip = new ZipFile(Path.of(jar).toFile())) {
      String directory = "";
      for (Enumeration<? extends ZipEntry> entries = zip.entries(); entries.hasMoreElements(); ) {
        String name = entries.nextElement().getName();
        int slash = name.lastIndexOf('/');
        if (slash < 0 || (slash + 1 == directory.length() && name.startsWith(directory))) {
          continue;
        }
        directory = name.substring(0, slash + 1);
        for (String prefix : HIDDEN_PREFIXES) {
          if (directory.startsWith(prefix)) {
            return true;
          }
        }
      }
      return false;
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  /** The jar file of a {@code jar:file:...!/entry} URL. */
  private static Optional<URI> jarOf(URL url) {
    String s = url.toString();
    if (!s.startsWith("jar:file:")) {
      return Optional.empty();
    }
    int bang = s.indexOf("!/");
    try {
      return Optional.of(new URI(s.substring("jar:".length(), bang < 0 ? s.length() : bang)));
    } catch (URISyntaxException e) {
      return Optional.empty();
    }
  }

  /**
   * The runtime's SLF4J provider jar, when the app (an exploded directory or a {@code .war})
   * bundles {@code slf4j-api} but no provider; empty otherwise, or when the runtime has none.
   */
  public static Optional<Path> slf4jProviderFor(Path app) {
    boolean[] found = new boolean[2]; // [api, provider]
    try {
      if (Files.isDirectory(app)) {
        scanDirectory(app, found);
      } else {
        scanWar(app, found);
      }
    } catch (IOException | UncheckedIOException e) {
      return Optional.empty(); // Jetty reports an unreadable app better
    }
    if (!found[0] || found[1]) {
      return Optional.empty();
    }
    return runtimeProviderJar();
  }

  private static Optional<Path> runtimeProviderJar() {
    try {
      Class<?> provider =
          Class.forName(RUNTIME_SLF4J_PROVIDER, false, RuntimeLibraries.class.getClassLoader());
      var source = provider.getProtectionDomain().getCodeSource();
      if (source == null || source.getLocation() == null) {
        return Optional.empty();
      }
      Path jar = Path.of(source.getLocation().toURI());
      return Files.isRegularFile(jar) ? Optional.of(jar) : Optional.empty();
    } catch (ClassNotFoundException | URISyntaxException | RuntimeException e) {
      return Optional.empty();
    }
  }

  private static void note(String entry, boolean[] found) {
    if (entry.equals(SLF4J_API_CLASS)) {
      found[0] = true;
    } else if (entry.equals(SLF4J_PROVIDER_SERVICE)) {
      found[1] = true;
    }
  }

  private static void scanDirectory(Path app, boolean[] found) throws IOException {
    Path classes = app.resolve("WEB-INF/classes");
    if (Files.isDirectory(classes)) {
      note(Files.exists(classes.resolve(SLF4J_API_CLASS)) ? SLF4J_API_CLASS : "", found);
      note(
          Files.exists(classes.resolve(SLF4J_PROVIDER_SERVICE)) ? SLF4J_PROVIDER_SERVICE : "",
          found);
    }
    Path lib = app.resolve("WEB-INF/lib");
    if (!Files.isDirectory(lib)) {
      return;
    }
    List<Path> jars = new ArrayList<>();
    try (Stream<Path> files = Files.list(lib)) {
      files
          .filter(f -> f.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".jar"))
          .forEach(jars::add);
    }
    for (Path jar : jars) {
      try (ZipFile zip = new ZipFile(jar.toFile())) {
        note(zip.getEntry(SLF4J_API_CLASS) != null ? SLF4J_API_CLASS : "", found);
        note(zip.getEntry(SLF4J_PROVIDER_SERVICE) != null ? SLF4J_PROVIDER_SERVICE : "", found);
      }
    }
  }

  private static void scanWar(Path war, boolean[] found) throws IOException {
    try (ZipFile zip = new ZipFile(war.toFile())) {
      for (ZipEntry entry : zip.stream().toList()) {
        String name = entry.getName();
        if (name.startsWith("WEB-INF/classes/")) {
          note(name.substring("WEB-INF/classes/".length()), found);
        } else if (name.startsWith("WEB-INF/lib/")
            && name.toLowerCase(Locale.ROOT).endsWith(".jar")) {
          try (InputStream in = zip.getInputStream(entry);
              ZipInputStream jar = new ZipInputStream(in)) {
            for (ZipEntry inner = jar.getNextEntry(); inner != null; inner = jar.getNextEntry()) {
              note(inner.getName(), found);
            }
          }
        }
      }
    }
  }
}
