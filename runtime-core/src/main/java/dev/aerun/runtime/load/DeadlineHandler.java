package dev.aerun.runtime.load;

import dev.aerun.runtime.contract.RequestAttributes;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.logging.Logger;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.io.EofException;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * Enforces the request deadline ({@code X-AppEngine-Timeout-Ms} from a trusted front end, set as
 * the {@link RequestAttributes#DEADLINE_NANOS} attribute by the request contract) in HttpConnector
 * mode, as legacy mode's front end does with the call's deadline:
 *
 * <ul>
 *   <li>A request whose deadline has already passed when it arrives gets {@code 504} without
 *       reaching the app.
 *   <li>When the deadline passes while the app runs and the response is not committed yet, the
 *       client gets {@code 504 Gateway Timeout} at once (the server's error page, {@code
 *       Connection: close}). The app's thread is not interrupted: it runs on, its later writes fail
 *       with an {@link EofException}, and its request completes when it returns.
 *   <li>When the app already committed the response, the status cannot change: its later writes
 *       fail, so the client sees the response cut short.
 * </ul>
 *
 * Either way one warning is logged ({@link #exceeded}) and the instance serves on. Requests without
 * a deadline pass through untouched; with one, the cost is a scheduled timer and two wrappers.
 */
public final class DeadlineHandler extends Handler.Wrapper {
  private static final Logger log = Logger.getLogger(DeadlineHandler.class.getName());

  public DeadlineHandler() {}

  public DeadlineHandler(Handler next) {
    super(next);
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    if (!(request.getAttribute(RequestAttributes.DEADLINE_NANOS) instanceof Long deadline)) {
      return super.handle(request, response, callback);
    }
    long timeoutMillis =
        request.getAttribute(RequestAttributes.TIMEOUT_MILLIS) instanceof Long millis ? millis : 0;
    long left = deadline - System.nanoTime();
    if (left <= 0) {
      log.warning(exceeded(request.getMethod(), request.getHttpURI().getPath(), timeoutMillis, ""));
      response.getHeaders().put(HttpHeader.CONNECTION, "close");
      Response.writeError(request, response, callback, HttpStatus.GATEWAY_TIMEOUT_504);
      return true;
    }
    Guard guard = new Guard(request, response, callback, deadline, timeoutMillis);
    Scheduler scheduler = request.getComponents().getScheduler();
    guard.timer = scheduler.schedule(guard::expire, left, TimeUnit.NANOSECONDS);
    boolean handled;
    try {
      handled = super.handle(request, guard.response, guard);
    } catch (Throwable t) {
      if (guard.appGaveUp()) {
        // The 504 owns the response: Jetty must not write a 500 over it.
        guard.failed(t);
        return true;
      }
      throw t;
    }
    if (!handled && guard.appGaveUp()) {
      // The 504 owns the response and completes the callback: Jetty must not write a 404.
      guard.succeeded();
      return true;
    }
    return handled;
  }

  /**
   * The warning logged when a request runs past its deadline, in both modes: {@code request
   * deadline exceeded: GET /path ran past its 500 ms deadline; answered 504}.
   *
   * @param outcome what the client got, appended after {@code "; "} unless empty (then "answered
   *     504")
   */
  public static String exceeded(String method, String path, long timeoutMillis, String outcome) {
    return "request deadline exceeded: "
        + method
        + " "
        + path
        + " ran past its "
        + timeoutMillis
        + " ms deadline; "
        + (outcome.isEmpty() ? "answered 504" : outcome);
  }

  /**
   * One request with a deadline: the app's response and callback as the app sees them, and the
   * timer. The request's real callback completes once the app completed its own and, if the
   * deadline answered the client, once that answer was written.
   *
   * <p>The real response has one owner at a time, decided under the guard's lock. Until its first
   * write the app sets status, headers and trailers on a private copy ({@link AppResponse}), which
   * the real response never sees while the timer may still fire. The first write (or the app's
   * completion without a write) hands the copy over and makes the app the owner: the timer then
   * only logs. If the timer fires first, the deadline owns the real response and writes the 504;
   * the app's copy is dropped, its writes fail, and a handler that returns false or throws then
   * changes nothing the client gets.
   *
   * <p>The clock decides, not the timer: the timer's thread may run late (a busy machine, a pause
   * of the whole process that wakes it and the app's thread at once), so the app's thread checks
   * the deadline itself wherever the owner is decided (its first write, its completion, a handler
   * that returns false or throws) and answers for the timer when it finds the deadline passed.
   */
  private static final class Guard implements Callback {
    private final Request request;
    private final Response real;
    private final Callback callback;
    private final long deadlineNanos;
    private final long timeoutMillis;
    final AppResponse response;
    private final AtomicInteger parties = new AtomicInteger(1);
    private volatile Throwable answerFailure;
    volatile Scheduler.Task timer;

    // Guarded by this.
    private boolean done;
    private boolean expired;
    private boolean answering;
    private boolean appOwnsReal;

    Guard(
        Request request, Response real, Callback callback, long deadlineNanos, long timeoutMillis) {
      this.request = request;
      this.real = real;
      this.callback = callback;
      this.deadlineNanos = deadlineNanos;
      this.timeoutMillis = timeoutMillis;
      this.response = new AppResponse(request, real);
    }

    void cancelTimer() {
      Scheduler.Task task = timer;
      if (task != null) {
        task.cancel();
      }
    }

    /**
     * On the app's thread where it hands over or gives up the response: acts as the timer would if
     * the deadline has passed and the timer has not run yet.
     */
    void expireIfPassed() {
      if (System.nanoTime() - deadlineNanos >= 0) {
        expire();
      }
    }

    /**
     * On the scheduler's thread when the deadline passes, or on the app's thread when it finds the
     * deadline passed first ({@link #expireIfPassed}); acts once.
     */
    void expire() {
      boolean answer;
      synchronized (this) {
        if (done || expired) {
          return;
        }
        expired = true;
        answer = !appOwnsReal && !real.isCommitted();
        if (answer) {
          answering = true;
          parties.incrementAndGet(); // the answer's write, besides the app
        }
      }
      String method = request.getMethod();
      String path = request.getHttpURI().getPath();
      if (!answer) {
        log.warning(
            exceeded(
                method,
                path,
                timeoutMillis,
                "the response was already committed: it is cut short"));
        return;
      }
      log.warning(exceeded(method, path, timeoutMillis, ""));
      Callback written = Callback.from(this::partyDone, this::partyFailed);
      try {
        real.reset();
        real.setStatus(HttpStatus.GATEWAY_TIMEOUT_504);
        real.getHeaders().put(HttpHeader.CONNECTION, "close");
        // The server's error page, as Response.writeError would write it, but without reading
        // what is left of the body: the app's thread may be reading it right now.
        Request.Handler errors = request.getContext().getErrorHandler();
        ErrorHandler.ErrorRequest errorRequest =
            new ErrorHandler.ErrorRequest(
                request,
                HttpStatus.GATEWAY_TIMEOUT_504,
                HttpStatus.getMessage(HttpStatus.GATEWAY_TIMEOUT_504),
                null);
        if (errors == null || !errors.handle(errorRequest, real, written)) {
          real.write(true, null, written);
        }
      } catch (Throwable t) {
        written.failed(t);
      }
    }

    /**
     * The handler below returned false or threw: true if the deadline owns the response (the app
     * may not give it back to Jetty), false if Jetty may answer as usual (the timer is off).
     */
    boolean appGaveUp() {
      expireIfPassed();
      synchronized (this) {
        if (answering) {
          return true;
        }
        done = true;
      }
      cancelTimer();
      return false;
    }

    private void partyFailed(Throwable failure) {
      answerFailure = failure;
      partyDone();
    }

    private void partyDone() {
      if (parties.decrementAndGet() == 0) {
        complete(answerFailure);
      }
    }

    /** The app completed the request. */
    @Override
    public void succeeded() {
      appDone(null);
    }

    @Override
    public void failed(Throwable failure) {
      appDone(failure);
    }

    private void appDone(Throwable failure) {
      if (!response.own()) {
        expireIfPassed(); // completed without a write: as late as a first write
      }
      boolean answering;
      boolean cutShort;
      synchronized (this) {
        done = true;
        answering = this.answering;
        cutShort = expired && !answering;
        if (!answering) {
          // Completed without a write: Jetty writes the response from the real one.
          response.handOver();
        }
      }
      cancelTimer();
      if (answering) {
        partyDone(); // the client has its 504 (or will): the app's own outcome no longer matters
      } else if (cutShort && failure == null) {
        // Even if the app returned normally, its response is incomplete: a failure makes Jetty
        // abort the stream rather than end it as if it were whole.
        complete(new EofException("request deadline exceeded"));
      } else {
        complete(failure);
      }
    }

    private void complete(Throwable failure) {
      if (failure == null) {
        callback.succeeded();
      } else {
        callback.failed(failure);
      }
    }

    @Override
    public InvocationType getInvocationType() {
      return callback.getInvocationType();
    }

    /**
     * The response as the app sees it: status, headers and trailers on a private copy until the
     * first write hands them over (see {@link Guard}); writes refused once the deadline passed.
     */
    private final class AppResponse extends Response.Wrapper {
      // Guarded by Guard.this until handed over; the app's own after that.
      private final HttpFields.Mutable headers;
      private int status;
      private Supplier<HttpFields> trailers;
      private boolean handedOver;

      AppResponse(Request request, Response wrapped) {
        super(request, wrapped);
        this.headers = HttpFields.build(wrapped.getHeaders());
        this.status = wrapped.getStatus();
        this.trailers = wrapped.getTrailersSupplier();
      }

      /** Makes the app the real response's owner: copies its view over once. Holds Guard.this. */
      void handOver() {
        if (handedOver || expired) {
          return;
        }
        handedOver = true;
        appOwnsReal = true;
        Response real = getWrapped();
        if (status != real.getStatus()) {
          real.setStatus(status); // 0, "not set yet", is only ever the initial value
        }
        HttpFields.Mutable realHeaders = real.getHeaders();
        realHeaders.clear();
        realHeaders.add(headers);
        real.setTrailersSupplier(trailers);
      }

      private boolean own() {
        synchronized (Guard.this) {
          return handedOver;
        }
      }

      @Override
      public int getStatus() {
        synchronized (Guard.this) {
          return handedOver ? getWrapped().getStatus() : status;
        }
      }

      @Override
      public void setStatus(int code) {
        synchronized (Guard.this) {
          if (handedOver) {
            getWrapped().setStatus(code);
          } else {
            status = code;
          }
        }
      }

      @Override
      public HttpFields.Mutable getHeaders() {
        // Before the hand-over only the app's thread touches the copy.
        return own() ? getWrapped().getHeaders() : headers;
      }

      @Override
      public Supplier<HttpFields> getTrailersSupplier() {
        synchronized (Guard.this) {
          return handedOver ? getWrapped().getTrailersSupplier() : trailers;
        }
      }

      @Override
      public void setTrailersSupplier(Supplier<HttpFields> supplier) {
        synchronized (Guard.this) {
          if (handedOver) {
            getWrapped().setTrailersSupplier(supplier);
          } else {
            trailers = supplier;
          }
        }
      }

      @Override
      public boolean isCommitted() {
        return own() && getWrapped().isCommitted();
      }

      @Override
      public void reset() {
        synchronized (Guard.this) {
          if (handedOver) {
            getWrapped().reset();
            return;
          }
          headers.clear();
          status = HttpStatus.OK_200;
          trailers = null;
        }
      }

      @Override
      public CompletableFuture<Void> writeInterim(int code, HttpFields fields) {
        synchronized (Guard.this) {
          if (expired) {
            return CompletableFuture.failedFuture(new EofException("request deadline exceeded"));
          }
        }
        return getWrapped().writeInterim(code, fields);
      }

      @Override
      public void write(boolean last, ByteBuffer content, Callback writeCallback) {
        if (!own()) {
          expireIfPassed(); // a first write after the deadline: the 504 owns the response
        }
        boolean refused;
        synchronized (Guard.this) {
          refused = expired;
          if (!refused) {
            handOver();
          }
        }
        if (refused) {
          writeCallback.failed(new EofException("request deadline exceeded"));
          return;
        }
        getWrapped().write(last, content, writeCallback);
      }
    }
  }
}
