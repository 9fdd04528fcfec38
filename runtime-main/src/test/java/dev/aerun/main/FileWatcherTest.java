package dev.aerun.main;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileWatcherTest {
  @TempDir Path dir;

  @Test
  void changeMadeBeforeStart_isReported_withTheFilesThatChanged() throws Exception {
    Path classes = dir.resolve("classes");
    Files.createDirectories(classes.resolve("a"));
    Files.writeString(classes.resolve("a/One.class"), "1");
    Path descriptor = dir.resolve("appengine-web.xml");
    BlockingQueue<Set<Path>> changes = new LinkedBlockingQueue<>();
    FileWatcher watcher = new FileWatcher(List.of(classes, descriptor), changes::add);
    // Between the first snapshot and the start (as while the app deploys): still a change.
    Files.writeString(classes.resolve("a/One.class"), "22");
    Files.writeString(classes.resolve("a/Two.class"), "2");
    watcher.start();
    try {
      assertEquals(
          Set.of(classes.resolve("a/One.class"), classes.resolve("a/Two.class")),
          changes.poll(60, TimeUnit.SECONDS));

      Files.writeString(descriptor, "<appengine-web-app/>"); // a file that did not exist
      assertEquals(Set.of(descriptor), changes.poll(60, TimeUnit.SECONDS));
    } finally {
      watcher.stop();
    }
  }

  @Test
  void aCompileThatDeletesBeforeItWrites_isReportedOnlyOnceTheFilesAreBack() throws Exception {
    Path classes = dir.resolve("classes");
    Files.createDirectories(classes.resolve("a"));
    Path one = classes.resolve("a/One.class");
    Path two = classes.resolve("a/Two.class");
    Files.writeString(one, "1");
    Files.writeString(two, "2");
    BlockingQueue<Set<Path>> changes = new LinkedBlockingQueue<>();
    FileWatcher watcher = new FileWatcher(List.of(classes), changes::add);
    watcher.start();
    try {
      // What maven-compiler-plugin does when it recompiles the module: delete every class file,
      // run javac for a while (far longer than the quiet period), then write them again.
      Files.delete(one);
      Files.delete(two);
      assertNull(
          changes.poll(3 * FileWatcher.QUIET_PERIOD.toMillis(), TimeUnit.MILLISECONDS),
          "a half-finished compile must not be reported");
      Files.writeString(one, "11");
      Files.writeString(two, "22");

      assertEquals(Set.of(one, two), changes.poll(60, TimeUnit.SECONDS));
    } finally {
      watcher.stop();
    }
  }

  @Test
  void aCompileThatRemovedAClass_isReportedAfterALongerQuiet() throws Exception {
    Path classes = dir.resolve("classes");
    Files.createDirectories(classes);
    Path kept = classes.resolve("Kept.class");
    Path removed = classes.resolve("Removed.class");
    Files.writeString(kept, "1");
    Files.writeString(removed, "2");
    BlockingQueue<Set<Path>> changes = new LinkedBlockingQueue<>();
    FileWatcher watcher = new FileWatcher(List.of(classes), changes::add);
    watcher.start();
    try {
      Files.delete(kept);
      Files.delete(removed);
      Thread.sleep(3 * FileWatcher.POLL_INTERVAL.toMillis());
      long written = System.nanoTime();
      Files.writeString(kept, "11"); // Removed.class is gone for good

      assertEquals(Set.of(kept, removed), changes.poll(60, TimeUnit.SECONDS));
      assertTrue(
          System.nanoTime() - written >= FileWatcher.QUIET_AFTER_DELETION.toNanos(),
          "reported before the longer quiet period");
    } finally {
      watcher.stop();
    }
  }
}
