package dev.aerun.runtime.dev;

import dev.aerun.runtime.webapp.Deployment;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Holds the app's handlers and replaces them with those of a new deployment, in the same server,
 * while it serves.
 *
 * <p>During a {@link #reload} no request fails and none reaches a half-deployed app: requests that
 * arrive are parked (without holding a thread) and run on the new app once it started; the old app
 * first finishes the requests it is running (up to {@link #IN_FLIGHT_WAIT}). A reload whose new app
 * fails to start leaves the old one stopped and answers every request with a {@link
 * ReloadFailurePage} until the next reload succeeds.
 */
public final class ReloadableHandler extends Handler.Wrapper {
  private static final Logger log = Logger.getLogger(ReloadableHandler.class.getName());

  /** How long a reload lets the old app's requests finish before it stops the app anyway. */
  public static final Duration IN_FLIGHT_WAIT = Duration.ofSeconds(10);

  /**
   * What the last reload did.
   *
   * @param at when it ended
   * @param took how long requests were held
   * @param failure why the new app is not serving; empty if it is
   */
  public record Outcome(Instant at, Duration took, Optional<Throwable> failure) {
    public boolean succeeded() {
      return failure.isEmpty();
    }
  }

  private record Parked(Request request, Response response, Callback callback) {}

  private final Object lock = new Object();
  private final AtomicInteger inFlight = new AtomicInteger();
  private List<Parked> parked; // non-null while a reload runs; guarded by lock
  private final Function<Deployment, Handler> handlers;
  private volatile Handler current;
  private volatile Throwable failure;
  private volatile Outcome lastOutcome;

  /**
   * @param handlers the app's handlers for a deployment, ending in its webapp: built again for each
   *     redeploy
   * @param initial the app as deployed at start
   */
  public ReloadableHandler(Function<Deployment, Handler> handlers, Deployment initial) {
    super(true, handlers.apply(initial));
    this.handlers = handlers;
    this.current = getHandler();
  }

  /**
   * The server attribute that turns off Jetty's cache of what the container jars hold (TLDs,
   * fragments, {@code META-INF/resources}).
   */
  static final String CONTAINER_SCAN_CACHE = "org.eclipse.jetty.metainf.useCache";

  @Override
  protected void doStart() throws Exception {
    // That cache lives in the server and is keyed by the jar resources each webapp mounts afresh:
    // every reload would add entries (and keep a mounted jar) that no later webapp ever finds.
    getServer().setAttribute(CONTAINER_SCAN_CACHE, Boolean.FALSE);
    super.doStart();
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    synchronized (lock) {
      if (parked != null) {
        parked.add(new Parked(request, response, callback));
        return true;
      }
      inFlight.incrementAndGet();
    }
    boolean handled = false;
    try {
      Callback finishing = new Finishing(callback);
      Throwable failed = failure;
      if (failed != null) {
        ReloadFailurePage.write(request, response, finishing, failed);
        handled = true;
      } else {
        handled = current.handle(request, response, finishing);
      }
      return handled;
    } finally {
      if (!handled) {
        finished();
      }
    }
  }

  /**
   * Replaces the app with the one {@code next} deploys once the old one stopped, holding requests
   * meanwhile. Blocks for as long as that takes: call it from a thread of its own, never from a
   * request.
   */
  public Outcome reloadBlocking(Deployment.Deployer next) {
    long start = System.nanoTime();
    synchronized (lock) {
      if (parked == null) {
        parked = new ArrayList<>();
      }
    }
    Throwable failed = null;
    try {
      awaitInFlight();
      stopQuietly(current);
      Handler fresh = handlers.apply(next.deploy());
      fresh.setServer(getServer());
      try {
        fresh.start();
      } catch (Exception | Error e) {
        stopQuietly(fresh);
        throw e;
      }
      setHandler(fresh);
      current = fresh;
    } catch (Exception | LinkageError e) {
      failed = e;
      log.log(Level.WARNING, "reload failed: the app is not serving until the next change", e);
    }
    List<Parked> waiting;
    synchronized (lock) {
      failure = failed;
      waiting = parked;
      parked = null;
    }
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    lastOutcome = new Outcome(Instant.now(), took, Optional.ofNullable(failed));
    for (Parked p : waiting) {
      getServer().getThreadPool().execute(() -> resume(p));
    }
    return lastOutcome;
  }

  /** The last reload's outcome; empty before the first. */
  public Optional<Outcome> lastOutcome() {
    return Optional.ofNullable(lastOutcome);
  }

  private void resume(Parked p) {
    try {
      if (!handle(p.request(), p.response(), p.callback())) {
        Response.writeError(p.request(), p.response(), p.callback(), 404);
      }
    } catch (Throwable x) {
      p.callback().failed(x);
    }
  }

  private void awaitInFlight() throws InterruptedException {
    long deadline = System.nanoTime() + IN_FLIGHT_WAIT.toNanos();
    synchronized (inFlight) {
      while (inFlight.get() > 0) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          log.warning(inFlight.get() + " request(s) still running: stopping the old app anyway");
          return;
        }
        inFlight.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
      }
    }
  }

  private void finished() {
    if (inFlight.decrementAndGet() == 0) {
      synchronized (inFlight) {
        inFlight.notifyAll();
      }
    }
  }

  private static void stopQuietly(Handler handler) {
    try {
      handler.stop();
    } catch (Exception e) {
      log.log(Level.WARNING, "stopping the old app failed", e);
    }
  }

  /** Counts the request as finished once its callback completes, whichever way. */
  private final class Finishing extends Callback.Nested {
    Finishing(Callback callback) {
      super(callback);
    }

    /** After the request's callback succeeded or failed. */
    @Override
    public void completed() {
      finished();
    }
  }
}
