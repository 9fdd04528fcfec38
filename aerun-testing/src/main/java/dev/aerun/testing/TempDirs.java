package dev.aerun.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Temporary folders for what a test's runtime, API host or database writes, deleted when the test
 * JVM exits: by then every process the tests started has stopped (JUnit's own {@code @TempDir}
 * deletes at the end of the test, while a child process may still be writing as it ends, and fails
 * the test when it cannot).
 */
public final class TempDirs {
  private TempDirs() {}

  /** A new folder under the system's temporary folder, deleted (best effort) at JVM exit. */
  public static Path deletedAtExit(String prefix) {
    try {
      Path dir = Files.createTempDirectory(prefix);
      Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteQuietly(dir)));
      return dir;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Deletes a tree, leaving whatever cannot be deleted. */
  public static void deleteQuietly(Path root) {
    try (Stream<Path> tree = Files.walk(root)) {
      tree.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException | UncheckedIOException e) {
      // Gone already, or unreadable: nothing more to do.
    }
  }
}
