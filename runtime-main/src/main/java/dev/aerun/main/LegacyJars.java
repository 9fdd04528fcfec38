package dev.aerun.main;

import java.io.IOException;
import java.lang.instrument.Instrumentation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.jar.JarFile;

/**
 * Legacy RPC mode's jars: gRPC, protobuf, Guava and the runtime's own {@code rpc-legacy}, in {@code
 * lib/legacy} beside the runtime jar, off the class path its manifest names, and put on the system
 * class path only when this JVM serves in legacy RPC mode.
 *
 * <p>They are about 9,300 of the 11,000 entries the runtime's class path would otherwise have, and
 * every service look-up of a JVM (the JDK's logging back-end, SLF4J's provider, Jetty's
 * configurations) opens every jar of the class path and reads its directory: in HttpConnector mode
 * that was start-up time and heap for classes it never loads.
 *
 * <p>{@code java -jar runtime-main.jar} starts this class as the jar's launcher agent ({@code
 * Launcher-Agent-Class}), which gives it the {@link Instrumentation} that appends a jar to the
 * system class path: legacy mode's classes are then loaded by the same class loader as the rest of
 * the runtime, as when they were on the manifest's class path. A JVM started otherwise ({@code -cp}
 * with {@code dev.aerun.main.Main} or {@code Training}, an IDE, the tests) has no such agent and
 * needs the jars on its class path already; the images' entry points list them, so that their
 * class-data archive covers both modes.
 */
public final class LegacyJars {
  /** A class of {@code rpc-legacy}: loadable when legacy mode's jars are on the class path. */
  static final String PROBE_CLASS = "dev.aerun.rpc.transport.RpcTransport";

  /**
   * Held only until the mode is settled ({@link #settle}): an app's code could reach it through the
   * system class loader and reflection, and it lets a class be changed as it loads.
   */
  private static volatile Instrumentation instrumentation;

  private static volatile boolean startedFromJar;

  private LegacyJars() {}

  /** Run by the JVM before {@code main} when started with {@code java -jar runtime-main.jar}. */
  public static void agentmain(String arguments, Instrumentation given) {
    instrumentation = given;
    startedFromJar = true;
  }

  /** Whether this JVM was started with {@code java -jar} on the runtime jar. */
  static boolean startedFromJar() {
    return startedFromJar;
  }

  /**
   * The serving mode is chosen: for legacy RPC mode ({@code legacy}) its jars are put on the class
   * path ({@link #require}), and either way the instrumentation is let go before the app's code
   * runs.
   */
  static void settle(boolean legacy) throws StartupException {
    try {
      if (legacy) {
        require();
      }
    } finally {
      instrumentation = null;
    }
  }

  /**
   * Makes legacy RPC mode's classes loadable, before anything of that mode (or the webapp, whose
   * hidden classes include the jars on the class path) is set up; does nothing when they are.
   *
   * @throws StartupException when they are not on the class path and cannot be put there
   */
  static synchronized void require() throws StartupException {
    if (loadable()) {
      return;
    }
    Optional<Path> folder = folder(EeClassLoaders.runtimeHome());
    if (folder.isEmpty()) {
      throw new StartupException(
          "legacy RPC mode's classes are missing: no lib/legacy beside the runtime jar");
    }
    if (instrumentation == null) {
      throw new StartupException(
          "legacy RPC mode's classes are not on the class path: start the runtime with java -jar"
              + " runtime-main.jar, or add the jars of "
              + folder.get()
              + " to -cp");
    }
    try {
      for (Path jar : EeClassLoaders.jars(folder.get())) {
        try (JarFile file = new JarFile(jar.toFile())) { // checked here; only its name is kept
          instrumentation.appendToSystemClassLoaderSearch(file);
        }
      }
    } catch (IOException e) {
      throw new StartupException(
          "cannot open legacy RPC mode's jars in " + folder.get() + ": " + e.getMessage(), e);
    }
    if (!loadable()) {
      throw new StartupException(
          "legacy RPC mode's classes are missing: " + folder.get() + " has no " + PROBE_CLASS);
    }
  }

  /** {@code home/lib/legacy}, if it is a directory. */
  static Optional<Path> folder(Optional<Path> home) {
    return home.map(h -> h.resolve("lib").resolve("legacy")).filter(Files::isDirectory);
  }

  private static boolean loadable() {
    try {
      Class.forName(PROBE_CLASS, false, ClassLoader.getSystemClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }
}
