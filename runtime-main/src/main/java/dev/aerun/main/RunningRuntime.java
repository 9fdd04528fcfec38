package dev.aerun.main;

import dev.aerun.runtime.lifecycle.Durations;
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

  /** What is running: HttpConnector mode's server, or legacy mode's halves. */
  interface Servers {
    /** Blocks until the servers have stopped. */
    void join() throws InterruptedException;

    /**
     * Stops accepting requests and waits up to {@code grace} for those in flight.
     *
     * @return true if every request finished in time
     */
    boolean drain(Duration grace) throws InterruptedException;

    /** Stops the servers, the public port first; requests still running are ended. */
    void stop() throws Exception;

    /** The servers that {@code join}, {@code drain} and {@code stop} act on. */
    static Servers of(Join join, Drain drain, Stop stop) {
      return new Servers() {
        @Override
        public void join() throws InterruptedException {
          join.join();
        }

        @Override
        public boolean drain(Duration grace) throws InterruptedException {
          return drain.drain(grace);
        }

        @Override
        public void stop() throws Exception {
          stop.stop();
        }
      };
    }

    /** See {@link Servers#join()}. */
    interface Join {
      void join() throws InterruptedException;
    }

    /** See {@link Servers#drain(Duration)}. */
    interface Drain {
      boolean drain(Duration grace) throws InterruptedException;
    }

    /** See {@link Servers#stop()}. */
    interface Stop {
      void stop() throws Exception;
    }
  }

  private final Servers servers;
  private final Duration grace;
  private final AtomicBoolean shuttingDown = new AtomicBoolean();
  private volatile String firstSignal;
  private final CountDownLatch stopped = new CountDownLatch(1);
  private volatile int exitCode = Launcher.EXIT_OK;

  /** Takes over {@code servers}: a stop signal drains them within {@code grace}. */
  RunningRuntime(Duration grace, Servers servers) {
    this.servers = servers;
    this.grace = grace;
    boolean signals = Signals.handle(Signals.STOP_SIGNALS, this::onStopSignal);
    // Whatever else ends the JVM (System.exit, or a stop signal where signals cannot be handled):
    // stop the servers on the way out, without the drain.
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(signals ? this::stopOnExit : this::shutDownOnExit, "aerun-exit"));
  }

  /** Blocks until the runtime stops, including a graceful shutdown's last steps. */
  void join() {
    try {
      servers.join();
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
      boolean clean = servers.drain(grace);
      servers.stop();
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
    servers.stop();
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
      servers.stop();
    } catch (Exception e) {
      log.log(Level.WARNING, "stopping the runtime failed", e);
    }
  }
}
