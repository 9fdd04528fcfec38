package dev.aerun.main;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Stream;

/**
 * Watches files and directory trees by polling, and reports a change once they have been quiet for
 * a moment, so that a compile that is still writing class files is never picked up half-done.
 *
 * <p>A compile may also delete before it writes: maven-compiler-plugin deletes the module's class
 * files when it recompiles the whole module, then runs javac for a second or more, writing nothing,
 * before it writes the new ones; a jar may be replaced by a delete and a copy. So while files that
 * the deployed state has are missing, a quiet moment is not enough: the change is reported once
 * they are back (then after the usual {@link #QUIET_PERIOD}), or once something was written after
 * the deletion and the files stayed unchanged for {@link #QUIET_AFTER_DELETION} (a compile that
 * removed a class), or once nothing at all was written for {@link #DELETION_TIMEOUT} after it (the
 * files were just deleted).
 *
 * <p>Polling (a stat per file every {@link #POLL_INTERVAL}) rather than a {@code WatchService}: it
 * sees a directory created after start, a jar replaced by a rename, and files on any file system,
 * and a development tree is small.
 */
final class FileWatcher {
  private static final Logger log = Logger.getLogger(FileWatcher.class.getName());

  /** How often the files are looked at. */
  static final Duration POLL_INTERVAL = Duration.ofMillis(100);

  /** How long the files must stay unchanged before a change is reported. */
  static final Duration QUIET_PERIOD = Duration.ofMillis(300);

  /** How long the files must stay unchanged when some that were deployed are still missing. */
  static final Duration QUIET_AFTER_DELETION = Duration.ofMillis(1000);

  /** How long a deletion that nothing is written after waits before it is reported anyway. */
  static final Duration DELETION_TIMEOUT = Duration.ofSeconds(10);

  /** What to do with a change; runs on the watcher's thread, which waits for it. */
  interface Listener {
    /** {@code changed}: the files added, modified or deleted since the last call. */
    void changed(java.util.Set<Path> changed) throws Exception;
  }

  private final List<Path> roots;
  private final Listener listener;
  private volatile boolean running;
  private final Map<Path, String> baseline;

  /**
   * Takes the first snapshot, which later ones are compared with.
   *
   * @param roots files and directories to watch (a directory with everything below it); they need
   *     not exist yet
   */
  FileWatcher(List<Path> roots, Listener listener) {
    this.roots = List.copyOf(roots);
    this.listener = listener;
    // Now, before the app deploys: a change made while it starts is a change to pick up.
    this.baseline = snapshot();
  }

  /** Starts watching on a daemon thread of its own. */
  void start() {
    running = true;
    Thread thread = new Thread(this::run, "aerun-watch");
    thread.setDaemon(true);
    thread.start();
  }

  void stop() {
    running = false;
  }

  private void run() {
    Map<Path, String> deployed = baseline;
    Map<Path, String> last = deployed;
    long lastChange = 0;
    long lastDeletion = 0;
    long lastWrite = 0;
    while (running) {
      try {
        Thread.sleep(POLL_INTERVAL.toMillis());
        Map<Path, String> now = snapshot();
        if (!now.equals(last)) {
          long at = System.nanoTime();
          if (!now.keySet().containsAll(last.keySet())) {
            lastDeletion = at;
          }
          Map<Path, String> before = last;
          if (now.entrySet().stream().anyMatch(e -> !e.getValue().equals(before.get(e.getKey())))) {
            lastWrite = at;
          }
          last = now;
          lastChange = at;
          continue;
        }
        if (!now.equals(deployed)
            && settled(now, deployed, lastChange, lastDeletion, lastWrite)
            && running) {
          java.util.Set<Path> changed = new java.util.TreeSet<>(now.keySet());
          changed.addAll(deployed.keySet());
          Map<Path, String> before = deployed;
          changed.removeIf(p -> Objects.equals(before.get(p), now.get(p)));
          deployed = now;
          listener.changed(changed);
        }
      } catch (InterruptedException e) {
        return;
      } catch (Exception | LinkageError e) {
        log.log(Level.WARNING, "handling a change failed", e);
      }
    }
  }

  /**
   * Whether the files, unchanged since {@code lastChange}, are a state to deploy: quiet long
   * enough, and not a compile that deleted files and has not written them yet (see above).
   */
  private static boolean settled(
      Map<Path, String> now,
      Map<Path, String> deployed,
      long lastChange,
      long lastDeletion,
      long lastWrite) {
    long quiet = System.nanoTime() - lastChange;
    if (now.keySet().containsAll(deployed.keySet())) {
      return quiet >= QUIET_PERIOD.toNanos();
    }
    if (lastWrite - lastDeletion > 0) {
      return quiet >= QUIET_AFTER_DELETION.toNanos();
    }
    return System.nanoTime() - lastDeletion >= DELETION_TIMEOUT.toNanos();
  }

  /** Every watched file's size and modification time, by path. */
  Map<Path, String> snapshot() {
    Map<Path, String> files = new HashMap<>();
    for (Path root : roots) {
      if (Files.isDirectory(root)) {
        try (Stream<Path> tree = Files.walk(root)) {
          tree.forEach(file -> record(file, files));
        } catch (IOException | UncheckedIOException e) {
          // A directory deleted while walked (a clean build): the next poll sees what is left.
          files.put(root, "unreadable " + e.getMessage());
        }
      } else {
        record(root, files);
      }
    }
    return files;
  }

  private static void record(Path file, Map<Path, String> files) {
    try {
      BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
      if (!a.isDirectory()) {
        files.put(file, a.size() + "@" + a.lastModifiedTime());
      }
    } catch (IOException e) {
      files.remove(file); // gone, or not there yet
    }
  }

  @Override
  public String toString() {
    return Objects.toString(roots);
  }
}
