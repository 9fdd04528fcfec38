package dev.aerun.main;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Initialises, on a thread of its own, the Jetty classes every mode needs whose static initialisers
 * are slow, while the launcher's main thread reads the options and the descriptor: off the path to
 * the first request (docs/BENCHMARKS.md, "Cold start").
 *
 * <p>The main thread waits for it ({@link #awaitDone()}) before it uses Jetty, so the two threads
 * never initialise Jetty's classes at the same time: two threads initialising classes that refer to
 * each other in opposite orders would wait for each other forever. What the warm-up cannot
 * initialise (it never fails the start) the main thread initialises again and reports as it would
 * have without it.
 */
final class StartupWarmup {
  /**
   * Jetty's classes with slow static initialisers that every mode's start initialises, in the order
   * the start would: {@code MimeTypes} (its tables and the JDK's locale data, about 100 ms of a
   * cold JVM), the error handler with the pre-encoded header fields it creates (a service look-up
   * over every jar), the resource sorting, and the JDK's temporary-file helper with its {@code
   * SecureRandom} (the working directory's name).
   */
  static final List<String> CLASSES =
      List.of(
          "java.nio.file.TempFileHelper",
          "org.eclipse.jetty.http.MimeTypes",
          "org.eclipse.jetty.server.handler.ErrorHandler",
          "org.eclipse.jetty.util.resource.ResourceCollators",
          "org.eclipse.jetty.server.Server",
          "org.eclipse.jetty.util.security.SecurityUtils",
          "org.eclipse.jetty.http.HttpScheme",
          "org.eclipse.jetty.http.HttpMethod");

  /** How long the main thread waits at most; the warm-up takes about 200 ms on a cold JVM. */
  private static final long WAIT_MILLIS = TimeUnit.SECONDS.toMillis(10);

  private static volatile Thread running;

  private StartupWarmup() {}

  /** Starts the warm-up, once per process; the launcher's first step. */
  static synchronized void begin() {
    if (running != null) {
      return;
    }
    Thread thread = new Thread(StartupWarmup::initialise, "aerun-startup-warmup");
    thread.setDaemon(true); // never keeps a failed start's JVM alive
    running = thread;
    thread.start();
  }

  /**
   * Waits until the warm-up has initialised its classes (at most {@value #WAIT_MILLIS} ms); returns
   * at once when none was started (tests, the training run of an image's archive).
   */
  static void awaitDone() {
    Thread thread = running;
    if (thread == null) {
      return;
    }
    try {
      thread.join(WAIT_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Whether the warm-up thread has finished (or none was started). */
  static boolean done() {
    Thread thread = running;
    return thread == null || !thread.isAlive();
  }

  private static void initialise() {
    ClassLoader loader = StartupWarmup.class.getClassLoader();
    for (String name : CLASSES) {
      try {
        Class.forName(name, true, loader);
      } catch (Throwable e) {
        // The main thread meets the same problem where it uses the class, and reports it there.
      }
    }
  }
}
