package dev.aerun.main;

import dev.aerun.appengine.descriptor.EeVersion;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Loads the classes a start of the runtime needs, on a daemon thread, while the main thread starts
 * the runtime: the main thread then finds most of them loaded, instead of reading, parsing and
 * defining each when it first uses it. Those of the runtime's own class path (its jar and {@code
 * lib/}) from the launcher's first line; those of the EE's folder ({@code lib/ee10}, …) once the
 * launcher has made that folder's class loader ({@link #eeLoaderCreated}); listed before it, they
 * wait until then while the thread goes on with the rest.
 *
 * <p>The classes are listed, in the order a start loads them, in {@code lib/}{@value #FILE}, which
 * the build writes from training starts of the runtime on each EE ({@code
 * runtime-main/bin/startup-classes.sh}). They are loaded, not initialised: no static initialiser
 * runs on this thread, so the program's order of initialisation is the main thread's as before, and
 * two threads never initialise a class at once. The class loaders are parallel-capable, so the two
 * threads do not wait on each other but for the one class both ask for at the same moment. A name
 * that is not there (a list from another build) is skipped. Without the file, nothing is done.
 */
final class StartupClasses implements Runnable {
  /** The list's name in {@code lib/}. */
  static final String FILE = "startup-classes.txt";

  /** How long the thread waits, at the end of the list, for the EE's loader. */
  private static final int EE_WAIT_SECONDS = 30;

  /** The first EE class loader the launcher makes: one per JVM, one app per runtime. */
  private static final CompletableFuture<EeLoader> EE_LOADER = new CompletableFuture<>();

  private final Path list;
  private final ClassLoader loader;
  private final Future<EeLoader> eeLoader;
  private int loaded;

  /**
   * Loads the classes of {@code list}: a line {@code NAME} with {@code loader}, a line {@code
   * FOLDER NAME} (a class of {@code lib/ee10}, …) with the EE class loader {@code eeLoader} gives,
   * if it is that folder's.
   */
  StartupClasses(Path list, ClassLoader loader, Future<EeLoader> eeLoader) {
    this.list = list;
    this.loader = loader;
    this.eeLoader = eeLoader;
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
                home.get().resolve("lib").resolve(FILE),
                StartupClasses.class.getClassLoader(),
                EE_LOADER),
            "aerun-preload");
    thread.setDaemon(true);
    thread.start();
  }

  @Override
  public void run() {
    List<String[]> deferred = new ArrayList<>(); // EE classes listed before the EE's loader exists
    try (BufferedReader in = Files.newBufferedReader(list, StandardCharsets.UTF_8)) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        String entry = line.strip();
        if (entry.isEmpty() || entry.startsWith("#")) {
          continue;
        }
        int space = entry.indexOf(' ');
        if (space < 0) {
          load(entry, loader);
          continue;
        }
        deferred.add(new String[] {entry.substring(0, space), entry.substring(space + 1).strip()});
        if (eeLoader.isDone()) {
          loadFor(eeLoader.get(), deferred);
        }
      }
      if (!deferred.isEmpty()) {
        loadFor(eeLoader.get(EE_WAIT_SECONDS, TimeUnit.SECONDS), deferred);
      }
    } catch (NoSuchFileException e) {
      // no list: a build without its training start, or not the runtime jar's directory
    } catch (TimeoutException | ExecutionException e) {
      // no EE loader in time: a start that fails, or a role without a webapp
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException | RuntimeException e) {
      // only a loss of time: the main thread loads what it needs either way
    }
  }

  /** Loads {@code classes} of {@code ee}'s folder with its loader, skips the others; empties it. */
  private void loadFor(EeLoader ee, List<String[]> classes) {
    for (String[] eeClass : classes) {
      if (eeClass[0].equals(ee.folder())) {
        load(eeClass[1], ee.loader());
      }
    }
    classes.clear();
  }

  /**
   * The launcher has made the class loader of {@code ee}'s folder ({@code lib/ee8}, …): the listed
   * classes of that folder are loaded with it from now on.
   */
  static void eeLoaderCreated(EeVersion ee, ClassLoader eeLoader) {
    EE_LOADER.complete(new EeLoader(ee.name().toLowerCase(Locale.ROOT), eeLoader));
  }

  /** The class loader of {@code lib/}{@code folder}. */
  record EeLoader(String folder, ClassLoader loader) {}

  private void load(String name, ClassLoader from) {
    try {
      Class.forName(name, false, from);
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
