package dev.aerun.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** JDKs on this machine besides the one running the tests, for features of newer Java versions. */
final class Jdks {
  private static final Pattern VERSION = Pattern.compile("JAVA_VERSION=\"(\\d+)");

  private Jdks() {}

  /**
   * A JDK of at least {@code feature}: {@code -Daerun.test.jdk21=<home>} if given, the JDK running
   * the tests if new enough, else one under {@code /usr/lib/jvm} (where Linux packages and this
   * project's machines put them).
   */
  static Optional<Path> atLeast(int feature) {
    String given = System.getProperty("aerun.test.jdk" + feature);
    if (given != null) {
      return Optional.of(Path.of(given));
    }
    Path current = Path.of(System.getProperty("java.home"));
    if (Runtime.version().feature() >= feature) {
      return Optional.of(current);
    }
    Path jvms = Path.of("/usr/lib/jvm");
    if (!Files.isDirectory(jvms)) {
      return Optional.empty();
    }
    try (Stream<Path> homes = Files.list(jvms)) {
      return homes
          .filter(home -> Files.isExecutable(home.resolve("bin/java")))
          .filter(home -> featureOf(home) >= feature)
          .sorted()
          .findFirst();
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /** The feature version in a JDK's {@code release} file, or 0. */
  private static int featureOf(Path home) {
    try {
      Matcher m = VERSION.matcher(Files.readString(home.resolve("release")));
      return m.find() ? Integer.parseInt(m.group(1)) : 0;
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }
}
