package dev.aerun.runtime.load;

import dev.aerun.runtime.server.BodyCompressionHandler;
import dev.aerun.runtime.server.HeadersOnlyStreams;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import org.eclipse.jetty.http.BadMessageException;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Invocable;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * Bounds how long a request may take to deliver its body, so that a client trickling a body (one
 * byte now and then keeps the connection's idle timeout at bay) cannot hold one of the running
 * slots of the {@link ConcurrencyLimitHandler} for long.
 *
 * <p>Two bounds, whichever ends the body first:
 *
 * <ul>
 *   <li>The total: from the moment the request is admitted, its body must be complete within {@code
 *       timeout}, extended by one second for every {@link #MIN_BYTES_PER_SECOND} bytes that
 *       arrived.
 *   <li>The minimum rate ({@link MinRate}): once the body has had {@link MinRate#after()} since its
 *       first byte, its average rate since that byte must stay at {@link MinRate#bytesPerSecond()}
 *       or more whenever the reader waits for it. A trickle is cut after a few seconds instead of
 *       the whole timeout; an upload at mobile speeds is far above the default rate and never cut.
 *       A reader that is busy elsewhere (an app that reads its body late) is not the client's
 *       slowness, so the rate is only judged while a read is pending.
 * </ul>
 *
 * <p>Past a bound, the pending and every later read of the body fail with a {@code 408 Request
 * Timeout} {@link BadMessageException}, the failure HttpConnector mode's app meets on its read and
 * legacy mode's front end forwards as the body's client error, so both modes answer alike; the
 * response then closes the connection, since the rest of the body was never read. Both bounds work
 * on the request's reads, whatever carries them (HTTP/1.1 or an HTTP/2 stream).
 *
 * <p>Requests without a body pass through untouched. With one, the cost is one object, the
 * request's wrapper, which is also its callback. What watching a waiting reader takes (the timers,
 * one for each bound, and their state) is only made once the reader has to wait for the client
 * ({@link Request#demand}); the timers are cancelled when the last chunk arrives or the request
 * completes. A body that is already there when the app reads it (most small bodies) never needs a
 * timer: its reads check the total bound themselves. Never blocks.
 */
public final class BodyTimeoutHandler extends Handler.Wrapper {
  private static final Logger log = Logger.getLogger(BodyTimeoutHandler.class.getName());

  /** The pace that extends the total bound: 64 KiB/s, far below any real uplink. */
  public static final long MIN_BYTES_PER_SECOND = 64 * 1024;

  /** The default bound on a body, before the extension for the bytes that arrived. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

  /** How often a rate check looks again while the reader is busy elsewhere. */
  private static final long RECHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

  /** A watch's pending demand, taken once by whoever comes first (Jetty's call or a failure). */
  private static final VarHandle PENDING_DEMAND;

  static {
    try {
      PENDING_DEMAND =
          MethodHandles.lookup()
              .findVarHandle(WatchedRequest.Watch.class, "pendingDemand", Runnable.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /**
   * The minimum average rate of a request body.
   *
   * @param bytesPerSecond the least average rate since the body's first byte; 0 for no minimum
   * @param after how long after its first byte a body is first judged
   */
  public record MinRate(long bytesPerSecond, Duration after) {
    /** 1 KiB/s once a body has had 3 s: a trickle ends within seconds, 16 KiB/s never does. */
    public static final MinRate DEFAULT = new MinRate(1024, Duration.ofSeconds(3));

    /** No minimum rate. */
    public static final MinRate NONE = new MinRate(0, Duration.ZERO);

    public MinRate {
      if (bytesPerSecond < 0) {
        throw new IllegalArgumentException(
            "minimum body rate must not be negative: " + bytesPerSecond);
      }
      if (after == null || after.isNegative()) {
        throw new IllegalArgumentException(
            "minimum body rate delay must not be negative: " + after);
      }
    }

    boolean enabled() {
      return bytesPerSecond > 0;
    }
  }

  private final long timeoutNanos;
  private final MinRate minRate;

  /**
   * @param timeout how long a body may take (extended by its arrived bytes); zero for no bound
   * @param minRate the minimum average rate of a body ({@link MinRate#NONE} for none)
   */
  public BodyTimeoutHandler(Duration timeout, MinRate minRate) {
    if (timeout.isNegative()) {
      throw new IllegalArgumentException("body timeout must not be negative: " + timeout);
    }
    this.timeoutNanos = timeout.toNanos();
    this.minRate = minRate;
  }

  public BodyTimeoutHandler(Duration timeout, MinRate minRate, Handler next) {
    this(timeout, minRate);
    setHandler(next);
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    if ((timeoutNanos == 0 && !minRate.enabled()) || !mayHaveBody(request)) {
      return super.handle(request, response, callback);
    }
    WatchedRequest watched = new WatchedRequest(request, callback);
    boolean handled = false;
    try {
      handled = super.handle(watched, response, watched);
      return handled;
    } finally {
      if (!handled) {
        watched.cancel();
      }
    }
  }

  /**
   * Whether a body may follow: a length over 0, or (no length) a chunked HTTP/1 body, a body being
   * inflated ({@link BodyCompressionHandler#INFLATED_LENGTH}) or an HTTP/2+ stream that did not end
   * with its headers ({@link HeadersOnlyStreams}). Jetty gives a bodiless HTTP/1 request no length
   * at all, not 0.
   */
  public static boolean mayHaveBody(Request request) {
    long length = request.getLength();
    if (length >= 0) {
      return length > 0;
    }
    if (request.getHeaders().contains(HttpHeader.TRANSFER_ENCODING)
        || request.getHeaders().contains(BodyCompressionHandler.INFLATED_LENGTH)) {
      return true;
    }
    return request.getConnectionMetaData().getHttpVersion().getVersion() >= 20
        && !HeadersOnlyStreams.endedWithHeaders(request);
  }

  /**
   * A request whose body reads fail once a bound passes; also its callback, which stops the watch
   * when the request completes (one object per request, not two). What watching a reader that waits
   * for the client takes is in its {@link Watch}, made on the first wait.
   */
  private final class WatchedRequest extends Request.Wrapper implements Callback {
    private final Callback callback;
    private final long startNanos = System.nanoTime();

    private volatile long received;
    private volatile long firstByteNanos;
    private volatile boolean ended;

    /** Made by the reader when it first waits for the client, or when its read finds it late. */
    private volatile Watch watch;

    WatchedRequest(Request wrapped, Callback callback) {
      super(wrapped);
      this.callback = callback;
    }

    @Override
    public void succeeded() {
      cancel();
      callback.succeeded();
    }

    @Override
    public void failed(Throwable failure) {
      cancel();
      callback.failed(failure);
    }

    @Override
    public InvocationType getInvocationType() {
      return callback.getInvocationType();
    }

    void cancel() {
      ended = true;
      Watch watch = this.watch;
      if (watch != null) {
        watch.cancelTimers();
      }
    }

    /** The watch, made now if need be; only the reader calls this. */
    private Watch watch() {
      Watch watch = this.watch;
      if (watch == null) {
        watch = this.watch = new Watch();
      }
      return watch;
    }

    /** The failure of a bound that passed, or null. */
    private BadMessageException expired() {
      Watch watch = this.watch;
      return watch == null ? null : watch.expired;
    }

    /** The total time the body may take, extended by the bytes that arrived so far. */
    private long allowedNanos() {
      return timeoutNanos + TimeUnit.SECONDS.toNanos(1) * received / MIN_BYTES_PER_SECOND;
    }

    /** In how long the bytes so far stop sufficing for the minimum average rate (≤ 0: now). */
    private long rateDueNanos(long now) {
      long sinceFirst = now - firstByteNanos;
      long sufficeNanos =
          Math.max(
              minRate.after().toNanos(),
              TimeUnit.SECONDS.toNanos(1) * received / minRate.bytesPerSecond());
      return sufficeNanos - sinceFirst;
    }

    @Override
    public Content.Chunk read() {
      BadMessageException failure = expired();
      if (failure != null) {
        return Content.Chunk.from(failure, true);
      }
      Watch watch = this.watch;
      if ((watch == null || !watch.totalArmed) && timeoutNanos > 0 && !ended) {
        // No timer watches the total yet: the read itself sees whether it passed.
        long elapsed = System.nanoTime() - startNanos;
        if (elapsed >= allowedNanos()) {
          watch = watch();
          watch.expire(elapsed, "the time allowed passed");
          return Content.Chunk.from(watch.expired, true);
        }
      }
      Content.Chunk chunk = super.read();
      if (chunk != null) {
        int bytes = chunk.remaining();
        if (bytes > 0) {
          received += bytes; // reads of one request do not overlap
          if (firstByteNanos == 0 && minRate.enabled()) {
            firstByteNanos = System.nanoTime();
          }
        }
        if (chunk.isLast()) {
          cancel();
        }
      }
      return chunk;
    }

    @Override
    public void demand(Runnable demandCallback) {
      Watch watch = watch();
      if (watch.expired != null) {
        wakeLater(demandCallback);
        return;
      }
      watch.pendingDemand = demandCallback;
      watch.armTimers();
      if (watch.expired != null) {
        watch.wakeReader(); // the total had already passed
        return;
      }
      // Keeps the reader's invocation type, so Jetty runs it where it would have.
      watch.type = Invocable.getInvocationType(demandCallback);
      super.demand(watch);
      if (watch.expired != null) {
        watch.wakeReader(); // the deadline passed while the demand was being registered
      }
    }

    private void wakeLater(Runnable demandCallback) {
      try {
        getComponents().getExecutor().execute(demandCallback);
      } catch (RejectedExecutionException stopping) {
        demandCallback.run();
      }
    }

    /**
     * The watch over a reader that waits for the client: its pending demand, the timers and the
     * failure once a bound passed. It is also what Jetty calls back when the body can be read,
     * handing the call to the reader's pending demand unless a bound's failure took it first. One
     * per request, reused by its demands (they do not overlap).
     */
    private final class Watch implements Invocable.Task {
      /** The reader's demand while it waits for the client; read and cleared through the handle. */
      @SuppressWarnings("unused")
      private volatile Runnable pendingDemand;

      private volatile InvocationType type;

      // The reader's own.
      private boolean totalArmed;
      private boolean rateArmed;

      private volatile BadMessageException expired;
      private volatile Scheduler.Task timer;
      private volatile Scheduler.Task rateTimer;

      @Override
      public void run() {
        Runnable demand = takePendingDemand();
        if (demand != null) {
          demand.run();
        }
      }

      @Override
      public InvocationType getInvocationType() {
        return type;
      }

      private Runnable takePendingDemand() {
        return (Runnable) PENDING_DEMAND.getAndSet(this, null);
      }

      private void scheduleTotal(long delayNanos) {
        timer = schedule(this::checkTotal, delayNanos);
        cancelIfEnded();
      }

      private void scheduleRate(long delayNanos) {
        rateTimer = schedule(this::checkRate, delayNanos);
        cancelIfEnded();
      }

      /**
       * After a timer was set: if the request completed meanwhile, its cancel may have seen the
       * timer before this one, so this one is cancelled here.
       */
      private void cancelIfEnded() {
        if (ended) {
          cancelTimers();
        }
      }

      private Scheduler.Task schedule(Runnable check, long delayNanos) {
        return getComponents().getScheduler().schedule(check, delayNanos, TimeUnit.NANOSECONDS);
      }

      void cancelTimers() {
        cancelTask(timer);
        cancelTask(rateTimer);
      }

      /**
       * Before the reader waits for the client: schedules the timers not yet scheduled, the total's
       * now (it fails the body at once if already past), the rate's once the body's first byte
       * came.
       */
      private void armTimers() {
        if (!totalArmed && timeoutNanos > 0) {
          totalArmed = true;
          checkTotal();
        }
        if (!rateArmed && minRate.enabled() && firstByteNanos != 0) {
          rateArmed = true;
          scheduleRate(Math.max(0, rateDueNanos(System.nanoTime())));
        }
      }

      /**
       * On the scheduler's thread (or the reader's, when it arms the timers): cut the body off, or
       * look again when it may be due.
       */
      private void checkTotal() {
        if (ended || expired != null) {
          return;
        }
        long allowed = allowedNanos();
        long elapsed = System.nanoTime() - startNanos;
        if (elapsed < allowed) {
          scheduleTotal(allowed - elapsed);
          return;
        }
        expire(elapsed, "the time allowed passed");
      }

      /**
       * On the scheduler's thread: cut the body off if the reader waits and the average since the
       * first byte is below the minimum, or look again when it may be.
       */
      private void checkRate() {
        if (ended || expired != null) {
          return;
        }
        long now = System.nanoTime();
        long due = rateDueNanos(now);
        if (due > 0 || pendingDemand == null) {
          // Not due yet, or the reader is not waiting for the client just now: look again.
          scheduleRate(due > 0 ? due : RECHECK_NANOS);
          return;
        }
        expire(
            now - startNanos,
            "below " + minRate.bytesPerSecond() + " bytes/s since its first byte");
      }

      private void expire(long elapsedNanos, String why) {
        log.warning(
            String.format(
                "request body too slow: %s %s delivered %d bytes in %d ms, %s; answered 408",
                getMethod(),
                getHttpURI().getPath(),
                received,
                TimeUnit.NANOSECONDS.toMillis(elapsedNanos),
                why));
        expired =
            new BadMessageException(
                HttpStatus.REQUEST_TIMEOUT_408, "Request body too slow: " + why);
        cancelTimers();
        wakeReader();
      }

      /** Runs the reader's pending demand, if any, so that its next read meets the failure. */
      private void wakeReader() {
        Runnable demand = takePendingDemand();
        if (demand != null) {
          wakeLater(demand);
        }
      }
    }
  }

  private static void cancelTask(Scheduler.Task task) {
    if (task != null) {
      task.cancel();
    }
  }
}
