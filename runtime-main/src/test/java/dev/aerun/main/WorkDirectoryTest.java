package dev.aerun.main;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
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

  @Test
  void sweepRemovesWhatKilledRuntimesLeft_andNothingElse() throws Exception {
    Path left = leftover(tmp, "aerun-webapp-killed");
    Path noLock = Files.createDirectories(tmp.resolve("aerun-webapp-older/app"));
    Path target = leftover(tmp, "elsewhere");
    Path link = Files.createSymbolicLink(tmp.resolve("aerun-webapp-link"), target);
    Path plainFile = Files.writeString(tmp.resolve("aerun-webapp-file"), "x");
    WorkDirectory live = WorkDirectory.create(Optional.of(tmp)); // locked by this JVM
    WorkDirectory own = WorkDirectory.create(Optional.of(tmp));

    assertEquals(1, own.sweepLeftovers());

    assertFalse(Files.exists(left), "a directory whose lock nobody holds is removed");
    assertTrue(Files.isDirectory(noLock), "one without a lock file may still be being made");
    assertTrue(
        Files.isRegularFile(target.resolve("app/WEB-INF/web.xml")), "links are not followed");
    assertTrue(Files.isSymbolicLink(link));
    assertTrue(Files.isRegularFile(plainFile));
    assertTrue(Files.isDirectory(live.path()), "a live runtime's directory stays");
    assertTrue(Files.isDirectory(own.path()));
    live.delete();
    own.delete();
  }

  @Test
  void sweepLeavesTheDirectoryOfARuntimeInAnotherProcess() throws Exception {
    Path held = leftover(tmp, "aerun-webapp-other");
    Path source =
        Files.writeString(
            tmp.resolve("HoldLock.java"),
            "import java.nio.channels.FileChannel;\n"
                + "import java.nio.file.*;\n"
                + "class HoldLock {\n"
                + "  public static void main(String[] a) throws Exception {\n"
                + "    FileChannel c = FileChannel.open(Path.of(a[0]), StandardOpenOption.WRITE);\n"
                + "    c.lock();\n"
                + "    System.out.println(\"locked\");\n"
                + "    System.in.read();\n"
                + "  }\n"
                + "}\n");
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process holder =
        new ProcessBuilder(java.toString(), source.toString(), held.resolve(".lock").toString())
            .redirectErrorStream(true)
            .start();
    try {
      BufferedReader out =
          new BufferedReader(
              new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
      assertEquals("locked", out.readLine());
      WorkDirectory own = WorkDirectory.create(Optional.of(tmp));

      assertEquals(0, own.sweepLeftovers());
      assertTrue(Files.isDirectory(held.resolve("app")), "its owner lives");

      holder.destroyForcibly().waitFor(60, TimeUnit.SECONDS); // kill -9: the lock goes with it
      assertEquals(1, own.sweepLeftovers());
      assertFalse(Files.exists(held));
      own.delete();
    } finally {
      holder.destroyForcibly();
    }
  }

  @Test
  void theLockGoesWithTheDirectory() throws Exception {
    WorkDirectory work = WorkDirectory.create(Optional.of(tmp));
    assertTrue(Files.isRegularFile(work.path().resolve(".lock")));
    work.delete();
    assertFalse(Files.exists(work.path()));
  }

  /** A working directory as a killed runtime leaves it: a lock file nobody holds, an app. */
  private static Path leftover(Path parent, String name) throws IOException {
    Path dir = Files.createDirectories(parent.resolve(name).resolve("app/WEB-INF"));
    Files.writeString(dir.resolve("web.xml"), "<web-app/>");
    Files.createDirectories(parent.resolve(name).resolve("scratch/jsp"));
    Files.createFile(parent.resolve(name).resolve(".lock"));
    return parent.resolve(name);
  }
}
