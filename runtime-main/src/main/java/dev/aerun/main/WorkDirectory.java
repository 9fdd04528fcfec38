package dev.aerun.main;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.UserPrincipal;
import java.util.Objects;
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
 * directory was removed, and asks the unpacking to stop meanwhile ({@link #deleting()}).
 *
 * <p>Only a {@code SIGKILL} (or a crash of the JVM) leaves it behind. So that such leftovers do not
 * pile up, the process holds an exclusive lock on the directory's {@code .lock} file for as long as
 * it lives (the operating system releases it however the process ends, and it is seen across PID
 * namespaces, unlike a process id), and {@link #sweepLeftovers()} removes the {@code
 * aerun-webapp-*} directories beside this one whose lock nobody holds.
 */
final class WorkDirectory {
  private static final Logger log = Logger.getLogger(WorkDirectory.class.getName());

  /** How long the exit waits for a start-up in progress before removing the directory anyway. */
  private static final long START_UP_WAIT_MILLIS = TimeUnit.SECONDS.toMillis(20);

  private static final String PREFIX = "aerun-webapp-";
  private static final String LOCK = ".lock";

  private final Thread hook;
  private Path path; // set once, under the lock, unless removal began first
  private FileChannel lock; // held from creation to removal: the directory is in use
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
              ? Files.createTempDirectory(Files.createDirectories(parent.get()), PREFIX)
              : Files.createTempDirectory(PREFIX);
      try {
        work.lock =
            FileChannel.open(
                work.path.resolve(LOCK), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        work.lock.lock();
      } catch (IOException e) {
        work.delete();
        throw e;
      }
    }
    return work;
  }

  /**
   * Removes, in the background, the {@code aerun-webapp-*} directories beside this one that a
   * runtime killed with {@code SIGKILL} left: those whose {@code .lock} file no process holds.
   * Directories without a lock file (made by an older runtime, or one that is still being made),
   * symbolic links and what another user owns are left alone. Called once the runtime serves, so
   * that it never delays the start.
   */
  void sweepLeftoversInBackground() {
    Thread sweeper = new Thread(this::sweepLeftovers, "aerun-work-directory-sweep");
    sweeper.setDaemon(true);
    sweeper.setPriority(Thread.MIN_PRIORITY);
    sweeper.start();
  }

  /** What {@link #sweepLeftoversInBackground()} does, on the calling thread; returns the count. */
  int sweepLeftovers() {
    Path own = path();
    if (own == null) {
      return 0;
    }
    int removed = 0;
    try (DirectoryStream<Path> beside = Files.newDirectoryStream(own.getParent(), PREFIX + "*")) {
      UserPrincipal user = Files.getOwner(own);
      for (Path dir : beside) {
        if (!dir.equals(own) && deletedIfAbandoned(dir, user)) {
          removed++;
        }
      }
    } catch (IOException | RuntimeException e) {
      log.fine("cannot sweep the working directories beside " + own + ": " + e);
    }
    if (removed > 0) {
      log.info(
          "removed "
              + removed
              + " working "
              + (removed == 1 ? "directory" : "directories")
              + " left in "
              + own.getParent()
              + " by runtimes that were killed");
    }
    return removed;
  }

  private static boolean deletedIfAbandoned(Path dir, UserPrincipal user) throws IOException {
    Path lockFile = dir.resolve(LOCK);
    if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)
        || !Files.isRegularFile(lockFile, LinkOption.NOFOLLOW_LINKS)
        || !Objects.equals(Files.getOwner(dir, LinkOption.NOFOLLOW_LINKS), user)) {
      return false;
    }
    try (FileChannel channel =
        FileChannel.open(lockFile, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
      FileLock held;
      try {
        held = channel.tryLock();
      } catch (OverlappingFileLockException e) {
        return false; // this JVM's own
      }
      if (held == null) {
        return false; // a live runtime's
      }
      // Everything but the lock file first: if this is cut short, the next sweep still finds it.
      try (DirectoryStream<Path> children = Files.newDirectoryStream(dir)) {
        for (Path child : children) {
          if (!child.getFileName().toString().equals(LOCK)) {
            deleteTree(child);
          }
        }
      }
      Files.deleteIfExists(lockFile);
      Files.deleteIfExists(dir);
      return true;
    } catch (NoSuchFileException e) {
      return false; // removed meanwhile, by its owner or another sweep
    }
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
    synchronized (this) {
      if (lock != null) {
        try {
          lock.close(); // releases the lock
        } catch (IOException e) {
          // Closed anyway; the directory goes next.
        }
        lock = null;
      }
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
