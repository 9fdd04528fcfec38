package dev.aerun.e2e.parity;

import dev.aerun.testing.AppCopies;
import dev.aerun.testing.RuntimeProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The sample apps unpacked once ({@link AppCopies#explode}: each file's modification time taken
 * from the war), and served from that one directory by every runtime of the suite.
 *
 * <p>Why not the .war: a runtime unpacks a war at start-up, so its files' modification times are
 * that moment, and the {@code Last-Modified} of static files and error pages differs between any
 * two processes. Serving the same exploded app (as the platform stages it) keeps that clock out of
 * the comparison without normalising the header away.
 */
final class ExplodedApps {
  private static final Map<String, Path> UNPACKED = new HashMap<>();

  private ExplodedApps() {}

  /** The sample app {@code war} (a file name in the apps directory), unpacked. */
  static synchronized Path of(String war) {
    return UNPACKED.computeIfAbsent(war, ExplodedApps::unpack);
  }

  private static Path unpack(String war) {
    Path source = RuntimeProcess.app(war);
    Path target =
        source
            .toAbsolutePath()
            .getParent()
            .resolveSibling("parity-apps")
            .resolve(war.replaceFirst("\\.war$", ""));
    try {
      deleteTree(target);
      return AppCopies.explode(source, target);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot unpack " + source, e);
    }
  }

  private static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
