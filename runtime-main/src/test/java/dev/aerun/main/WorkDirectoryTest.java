package dev.aerun.main;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkDirectoryTest {
  @TempDir Path tmp;

  @Test
  void isMadeInTheNamedDirectoryAndDeletedWithWhatIsInIt() throws Exception {
    WorkDirectory work = WorkDirectory.create(Optional.of(tmp.resolve("parent")));
    assertTrue(work.path().getFileName().toString().startsWith("aerun-webapp-"));
    assertTrue(work.path().startsWith(tmp.resolve("parent")));
    Files.createDirectories(work.app().resolve("WEB-INF"));
    Files.writeString(work.app().resolve("WEB-INF/x.txt"), "x");
    Files.createDirectories(work.scratch());

    work.delete();

    assertFalse(Files.exists(work.path()));
    assertTrue(Files.isDirectory(tmp.resolve("parent")));
  }

  @Test
  void deletionWaitsForStartUpToLeaveAndStopsNewUse() throws Exception {
    WorkDirectory work = WorkDirectory.create(Optional.of(tmp));
    work.enter();
    CompletableFuture<Void> deleting = CompletableFuture.runAsync(work::delete);
    while (!work.deleting()) {
      Thread.onSpinWait();
    }
    // Start-up still writes: the directory must still be there for it.
    Files.writeString(work.path().resolve("late.txt"), "written while deleting");
    assertFalse(deleting.isDone());
    assertThrows(IOException.class, work::enter);

    work.leave();

    deleting.get(60, TimeUnit.SECONDS);
    assertFalse(Files.exists(work.path()));
  }
}
