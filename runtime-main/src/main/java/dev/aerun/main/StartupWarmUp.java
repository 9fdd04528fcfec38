package dev.aerun.main;

import dev.aerun.runtime.server.BodyCompressionHandler;
import dev.aerun.runtime.webapp.RuntimeLibraries;
import java.util.Locale;

/**
 * Work that a start does once, on the main thread, and that depends on nothing of the app's but its
 * system properties: done on a daemon thread while the main thread deploys the app, on the other
 * core, so that the main thread finds it done (or waits for the rest of it) instead of doing it in
 * turn. In the order the main thread needs it:
 *
 * <ul>
 *   <li>The JDK's list of available locales, which Jetty's {@code MimeTypes} asks for when the
 *       first context is made: every locale provider's locales parsed, the larger part of that
 *       class's start. Made after the app's system properties are set: the JDK reads {@code
 *       java.locale.providers} when it first needs its locale providers, and an app may set it.
 *   <li>The runtime's jars hidden from the webapp ({@link RuntimeLibraries}), which the webapp's
 *       class loader set-up asks for: every entry of every jar of the class path read once. Made
 *       after legacy RPC mode's jars have joined the class path.
 *   <li>The native libraries of brotli and zstandard, which the response compression's codecs load
 *       when the server is built (only if the server compresses).
 * </ul>
 *
 * <p>Each is safe on any thread (the JDK's class initialisation, a synchronised look-up) and needs
 * only the JDK's classes and its own: nothing of Jetty's or the app's is initialised on this
 * thread, so it never waits for a class the main thread is initialising. A failure here is left for
 * the main thread, which does the same work again and reports it as before.
 */
final class StartupWarmUp implements Runnable {
  private final boolean compression;

  private StartupWarmUp(boolean compression) {
    this.compression = compression;
  }

  /**
   * Starts the warm-up on a daemon thread; to be called once the app's system properties are set.
   *
   * @param compression whether the server will compress responses
   */
  static void startInBackground(boolean compression) {
    Thread thread = new Thread(new StartupWarmUp(compression), "aerun-warm-up");
    thread.setDaemon(true);
    thread.start();
  }

  @Override
  public void run() {
    try {
      Locale.getAvailableLocales();
      RuntimeLibraries.hiddenClasses();
      if (compression) {
        BodyCompressionHandler.loadNativeCodecs();
      }
    } catch (RuntimeException | LinkageError e) {
      // The main thread does the same again, and reports what fails there.
    }
  }
}
