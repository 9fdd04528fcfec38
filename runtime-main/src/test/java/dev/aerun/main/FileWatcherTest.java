package dev.aerun.main;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
}
