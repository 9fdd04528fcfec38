package dev.aerun.main;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;

/**
 * The runtime's own working directory, {@code aerun-webapp-*}: the unpacked WAR ({@link #app()})
 * and the webapp's scratch space ({@link #scratch()}, which Jetty empties and fills).
 *
 * <p>It is removed on every way out of the process: by {@link #delete()} when start-up fails, and
 * by a shutdown hook otherwise (a normal exit, a stop signal while the app still deploys, a second
 * signal during the drain). Start-up marks its use with {@link #enter()} and {@link #leave()}: the
 * hook first waits a bounded time for start-up to leave, so that no file is written after the
 * directory was removed, and asks the unpacking to stop meanwhile ({@link #deleting()}). Only a
 * {@code SIGKILL} leaves it behind.
 */
final class WorkDirectory {
  private static final Logger log = Logger.getLogger(WorkDirectory.class.getName());

  /** How long the exit waits for a start-up in progress before removing the directory anyway. */
  private static final long START_UP_WAIT_MILLIS = TimeUnit.SECONDS.toMillis(20);

  private final Thread hook;
  private Path path; // set once, under the lock, unless removal began first
  private int users;
  private boolean deleting;

  private WorkDirectory() {
    this.hook = new Thread(this::delete, "aerun-work-directory-cleanup");
  }

  /** Creates a new {@code aerun-webapp-*} directory in {@code parent}, else the system's temp. */
  static WorkDirectory create(Optional<Path> parent) throws IOException {
    WorkDirectory work = new WorkDirectory();
    // The hook first, and the directory made under the lock the hook takes: a stop signal at any
    // moment either finds the directory to remove, or keeps it from being made.
    try {
      Runtime.getRuntime().addShutdownHook(work.hook);
    } catch (IllegalStateException e) {
      throw new IOException("the runtime is shutting down", e);
    }
    synchronized (work) {
      if (work.deleting) {
        throw new IOException("the runtime is shutting down");
      }
      work.path =
          parent.isPresent()
              ? Files.createTempDirectory(Files.createDirectories(parent.get()), "aerun-webapp-")
              : Files.createTempDirectory("aerun-webapp-");
    }
    return work;
  }

  synchronized Path path() {
    return path;
  }

  /** Where a WAR is unpacked. */
  Path app() {
    return path().resolve("app");
  }

  /** The webapp's temp directory: Jetty empties it at start, JSPs are compiled into it. */
  Path scratch() {
    return path().resolve("scratch");
  }

  /**
   * Start-up is about to write into the directory.
   *
   * @throws IOException if the directory is being removed (the process is exiting)
   */
  synchronized void enter() throws IOException {
    if (deleting) {
      throw new IOException("the runtime is shutting down");
    }
    users++;
  }

  /** Start-up is done with the directory (started or failed). */
  synchronized void leave() {
    users--;
    notifyAll();
  }

  /** True once removal began: long work in the directory should stop. */
  synchronized boolean deleting() {
    return deleting;
  }

  /** Removes the directory, after start-up left it (waiting at most a bounded time). */
  void delete() {
    Path made;
    synchronized (this) {
      deleting = true;
      made = path;
      long deadline = System.currentTimeMillis() + START_UP_WAIT_MILLIS;
      try {
        for (long left = START_UP_WAIT_MILLIS; users > 0 && left > 0; ) {
          wait(left);
          left = deadline - System.currentTimeMillis();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // Called by the hook itself, during the exit.
    }
    if (made != null) {
      deleteTree(made);
    }
  }

  private static void deleteTree(Path path) {
    // A server still stopping may delete or write its scratch files meanwhile: a few attempts.
    for (int attempt = 0; attempt < 5 && Files.exists(path); attempt++) {
      try {
        Files.walkFileTree(
            path,
            new SimpleFileVisitor<>() {
              @Override
              public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
                  throws IOException {
                Files.deleteIfExists(file);
                return FileVisitResult.CONTINUE;
              }

              @Override
              public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                if (e instanceof NoSuchFileException) {
                  return FileVisitResult.CONTINUE;
                }
                throw e;
              }

              @Override
              public FileVisitResult postVisitDirectory(Path dir, IOException e)
                  throws IOException {
                Files.deleteIfExists(dir);
                return FileVisitResult.CONTINUE;
              }
            });
      } catch (NoSuchFileException e) {
        return;
      } catch (IOException e) {
        if (attempt == 4) {
          log.warning("cannot remove the working directory " + path + ": " + e);
          return;
        }
        try {
          Thread.sleep(50);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }
}
