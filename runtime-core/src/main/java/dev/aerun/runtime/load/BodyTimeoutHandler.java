package dev.aerun.runtime.load;

import dev.aerun.runtime.server.BodyCompressionHandler;
import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
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
 * slots of the {@link ConcurrencyLimitHandler} for as long as it likes.
 *
 * <p>From the moment the request is admitted, its body must be complete within {@code timeout},
 * extended by one second for every {@link #MIN_BYTES_PER_SECOND} bytes that arrived: a client that
 * sends at least that fast is never cut off, whatever the size of its body; one that sends slower
 * (or stalls after a fast start) is. Past the bound, the pending and every later read of the body
 * fail with a {@code 408 Request Timeout} {@link BadMessageException}, the failure HttpConnector
 * mode's app meets on its read and legacy mode's front end forwards as the body's client error, so
 * both modes answer alike; the response then closes the connection, since the rest of the body was
 * never read.
 *
 * <p>Requests without a body pass through untouched; with one, the cost is a wrapper and one
 * scheduled timer, cancelled when the last chunk arrives. Never blocks.
 */
public final class BodyTimeoutHandler extends Handler.Wrapper {
  private static final Logger log = Logger.getLogger(BodyTimeoutHandler.class.getName());

  /** The pace that extends the bound: 64 KiB/s, far below any real uplink. */
  public static final long MIN_BYTES_PER_SECOND = 64 * 1024;

  /** The default bound on a body, before the extension for the bytes that arrived. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

  private final long timeoutNanos;

  /**
   * @param timeout how long a body may take (extended by its arrived bytes); zero for no bound
   */
  public BodyTimeoutHandler(Duration timeout) {
    if (timeout.isNegative()) {
      throw new IllegalArgumentException("body timeout must not be negative: " + timeout);
    }
    this.timeoutNanos = timeout.toNanos();
  }

  public BodyTimeoutHandler(Duration timeout, Handler next) {
    this(timeout);
    setHandler(next);
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    if (timeoutNanos == 0 || !mayHaveBody(request)) {
      return super.handle(request, response, callback);
    }
    WatchedRequest watched = new WatchedRequest(request, timeoutNanos);
    Callback done =
        new Callback.Nested(callback) {
          @Override
          public void succeeded() {
            watched.cancel();
            super.succeeded();
          }

          @Override
          public void failed(Throwable failure) {
            watched.cancel();
            super.failed(failure);
          }
        };
    watched.schedule(timeoutNanos);
    boolean handled = false;
    try {
      handled = super.handle(watched, response, done);
      return handled;
    } finally {
      if (!handled) {
        watched.cancel();
      }
    }
  }

  /**
   * Whether a body may follow: a length over 0, or (no length) a chunked HTTP/1 body, a body being
   * inflated ({@link BodyCompressionHandler#INFLATED_LENGTH}) or any HTTP/2+ stream. Jetty gives a
   * bodiless HTTP/1 request no length at all, not 0.
   */
  public static boolean mayHaveBody(Request request) {
    long length = request.getLength();
    if (length >= 0) {
      return length > 0;
    }
    return request.getConnectionMetaData().getHttpVersion().getVersion() >= 20
        || request.getHeaders().contains(HttpHeader.TRANSFER_ENCODING)
        || request.getHeaders().contains(BodyCompressionHandler.INFLATED_LENGTH);
  }

  /** A request whose body reads fail once its time is up. */
  private static final class WatchedRequest extends Request.Wrapper {
    private final long startNanos = System.nanoTime();
    private final long timeoutNanos;
    private final AtomicReference<Runnable> pendingDemand = new AtomicReference<>();
    private volatile long received;
    private volatile boolean ended;
    private volatile BadMessageException expired;
    private volatile Scheduler.Task timer;

    WatchedRequest(Request wrapped, long timeoutNanos) {
      super(wrapped);
      this.timeoutNanos = timeoutNanos;
    }

    void schedule(long delayNanos) {
      timer =
          getComponents().getScheduler().schedule(this::check, delayNanos, TimeUnit.NANOSECONDS);
    }

    void cancel() {
      ended = true;
      Scheduler.Task task = timer;
      if (task != null) {
        task.cancel();
      }
    }

    /** On the scheduler's thread: cut the body off, or look again when it may be due. */
    private void check() {
      if (ended) {
        return;
      }
      long allowed = timeoutNanos + TimeUnit.SECONDS.toNanos(1) * received / MIN_BYTES_PER_SECOND;
      long elapsed = System.nanoTime() - startNanos;
      if (elapsed < allowed) {
        schedule(allowed - elapsed);
        return;
      }
      log.warning(
          String.format(
              "request body too slow: %s %s delivered %d bytes in %d ms; answered 408",
              getMethod(),
              getHttpURI().getPath(),
              received,
              TimeUnit.NANOSECONDS.toMillis(elapsed)));
      expired =
          new BadMessageException(
              HttpStatus.REQUEST_TIMEOUT_408, "Request body too slow: the time allowed passed");
      wakeReader();
    }

    /** Runs the reader's pending demand, if any, so that its next read meets the failure. */
    private void wakeReader() {
      Runnable demand = pendingDemand.getAndSet(null);
      if (demand == null) {
        return;
      }
      try {
        getComponents().getExecutor().execute(demand);
      } catch (RejectedExecutionException stopping) {
        demand.run();
      }
    }

    @Override
    public Content.Chunk read() {
      BadMessageException failure = expired;
      if (failure != null) {
        return Content.Chunk.from(failure, true);
      }
      Content.Chunk chunk = super.read();
      if (chunk != null) {
        int bytes = chunk.remaining();
        if (bytes > 0) {
          received += bytes; // reads of one request do not overlap
        }
        if (chunk.isLast()) {
          cancel();
        }
      }
      return chunk;
    }

    @Override
    public void demand(Runnable demandCallback) {
      if (expired != null) {
        wakeLater(demandCallback);
        return;
      }
      pendingDemand.set(demandCallback);
      // Keeps the reader's invocation type, so Jetty runs it where it would have.
      super.demand(
          Invocable.from(
              Invocable.getInvocationType(demandCallback),
              () -> {
                Runnable demand = pendingDemand.getAndSet(null);
                if (demand != null) {
                  demand.run();
                }
              }));
      if (expired != null) {
        wakeReader(); // the deadline passed while the demand was being registered
      }
    }

    private void wakeLater(Runnable demandCallback) {
      try {
        getComponents().getExecutor().execute(demandCallback);
      } catch (RejectedExecutionException stopping) {
        demandCallback.run();
      }
    }
  }
}
