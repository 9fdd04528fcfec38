package dev.aerun.main;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Loads the classes a start of the runtime needs from its own class path (the runtime's jar and
 * {@code lib/}), on a daemon thread, while the main thread starts the runtime: the main thread then
 * finds most of them loaded, instead of reading, parsing and defining each when it first uses it.
 *
 * <p>The classes are listed, in the order a start loads them, in {@code lib/}{@value #FILE}, which
 * the build writes from a training start of the runtime ({@code
 * runtime-main/bin/startup-classes.sh}). They are loaded, not initialised: no static initialiser
 * runs on this thread, so the program's order of initialisation is the main thread's as before, and
 * two threads never initialise a class at once. The class loaders are parallel-capable, so the two
 * threads do not wait on each other but for the one class both ask for at the same moment. A name
 * that is not there (a list from another build) is skipped. Without the file, nothing is done.
 */
final class StartupClasses implements Runnable {
  /** The list's name in {@code lib/}. */
  static final String FILE = "startup-classes.txt";

  private final Path list;
  private final ClassLoader loader;
  private int loaded;

  StartupClasses(Path list, ClassLoader loader) {
    this.list = list;
    this.loader = loader;
  }

  /**
   * Starts loading the listed classes on a daemon thread, if the runtime jar's {@code lib/} has the
   * list.
   */
  static void preloadInBackground() {
    Optional<Path> home = EeClassLoaders.runtimeHome();
    if (home.isEmpty()) {
      return;
    }
    Thread thread =
        new Thread(
            new StartupClasses(
                home.get().resolve("lib").resolve(FILE), StartupClasses.class.getClassLoader()),
            "aerun-preload");
    thread.setDaemon(true);
    thread.start();
  }

  @Override
  public void run() {
    try (BufferedReader in = Files.newBufferedReader(list, StandardCharsets.UTF_8)) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        String name = line.strip();
        if (!name.isEmpty() && !name.startsWith("#")) {
          load(name);
        }
      }
    } catch (NoSuchFileException e) {
      // no list: a build without its training start, or not the runtime jar's directory
    } catch (IOException | RuntimeException e) {
      // only a loss of time: the main thread loads what it needs either way
    }
  }

  private void load(String name) {
    try {
      Class.forName(name, false, loader);
      loaded++;
    } catch (ClassNotFoundException | LinkageError e) {
      // not on this class path (the list is of another build), or it does not link here: the
      // main thread, should it need the class, gets the error itself
    }
  }

  /** How many of the listed classes this run loaded (or found loaded). */
  int loaded() {
    return loaded;
  }
}
