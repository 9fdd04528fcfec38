package dev.aerun.main;

import dev.aerun.runtime.lifecycle.Durations;
import dev.aerun.runtime.server.RuntimeServer;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A started runtime, whatever its mode or role: how to wait for it, and how it shuts down.
 *
 * <p>SIGTERM or SIGINT starts a graceful shutdown: the public port stops accepting, the health path
 * answers 503, the requests in flight get the grace period to finish, whatever still runs then is
 * ended (and logged), the servers stop, and {@link #join()} returns so that the process exits 0.
 * The same signal again during the drain stops the process at once (exit code 1).
 */
final class RunningRuntime {
  private static final Logger log = Logger.getLogger(RunningRuntime.class.getName());

  private final RuntimeServer server;
  private final Duration grace;
  private final AtomicBoolean shuttingDown = new AtomicBoolean();
  private volatile String firstSignal;
  private final CountDownLatch stopped = new CountDownLatch(1);
  private volatile int exitCode = Launcher.EXIT_OK;

  /** Takes over {@code server}, started: a stop signal drains it within {@code grace}. */
  RunningRuntime(Duration grace, RuntimeServer server) {
    this.server = server;
    this.grace = grace;
    boolean signals = Signals.handle(Signals.STOP_SIGNALS, this::onStopSignal);
    // Whatever else ends the JVM (System.exit, or a stop signal where signals cannot be handled):
    // stop the servers on the way out, without the drain.
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(signals ? this::stopOnExit : this::shutDownOnExit, "aerun-exit"));
  }

  /** The server this runtime runs. */
  RuntimeServer server() {
    return server;
  }

  /** Blocks until the runtime stops, including a graceful shutdown's last steps. */
  void join() {
    try {
      server.join();
      if (shuttingDown.get()) {
        stopped.await();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Drains and stops, as a stop signal does; returns once stopped. */
  void shutDown(String reason) {
    if (!shuttingDown.compareAndSet(false, true)) {
      return;
    }
    try {
      log.info(reason + ": draining; requests in flight have " + Durations.format(grace));
      long start = System.nanoTime();
      boolean clean = server.drain(grace);
      server.stop();
      long ms = (System.nanoTime() - start) / 1_000_000;
      log.info(
          clean
              ? "drained: every request finished; stopped in " + ms + " ms"
              : "stopped after the grace period; the requests still running were ended");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stopQuietly();
    } catch (Exception e) {
      log.log(Level.WARNING, "stopping the runtime failed", e);
      stopQuietly();
    } finally {
      stopped.countDown();
    }
  }

  /**
   * Drains and stops with {@link Launcher#EXIT_RESTART}: a development change that cannot apply in
   * this JVM, for whoever started it (the dev server) to start it again.
   */
  void restart(String reason) {
    exitCode = Launcher.EXIT_RESTART;
    shutDown(reason);
  }

  /** The process exit code once {@link #join()} returned. */
  int exitCode() {
    return exitCode;
  }

  void stop() throws Exception {
    server.stop();
  }

  private void onStopSignal(String name) {
    if (shuttingDown.get()) {
      // The same signal twice (Ctrl-C pressed again) stops at once; another one is the same
      // request by another route (a terminal's SIGINT reaches a relaunched JVM, and its launcher
      // passes it on as SIGTERM) and changes nothing.
      if (name.equals(firstSignal)) {
        log.warning("SIG" + name + " again during the drain: stopping now");
        System.exit(Launcher.EXIT_START_FAILED);
      }
      return;
    }
    firstSignal = name;
    // The signal dispatcher's thread must not block: drain on a thread of our own.
    Thread drain = new Thread(() -> shutDown("SIG" + name), "aerun-shutdown");
    drain.start();
  }

  private void stopOnExit() {
    if (!shuttingDown.get()) {
      stopQuietly();
    }
  }

  private void shutDownOnExit() {
    shutDown("JVM shutdown");
  }

  private void stopQuietly() {
    try {
      server.stop();
    } catch (Exception e) {
      log.log(Level.WARNING, "stopping the runtime failed", e);
    }
  }
}
