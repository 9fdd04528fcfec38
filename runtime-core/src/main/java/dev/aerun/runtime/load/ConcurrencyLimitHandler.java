package dev.aerun.runtime.load;

import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * Enforces a {@link Capacity} on a server that faces clients: at most {@link
 * Capacity#maxConcurrentRequests()} requests go on to the next handler at once; the next {@link
 * Capacity#maxQueuedRequests()} wait for a turn, first come first served, suspended (no thread is
 * held, no body is read), for at most {@link Capacity#maxQueueWait()} (a zero wait means no waiting
 * at all: nothing is queued); anything beyond, or waiting longer, gets {@code 503 Service
 * Unavailable} with {@code Retry-After: 1} and the server's error page. A turn is given back when a
 * request's callback completes, so the bound holds for asynchronous requests too. Overload is
 * logged at most once per {@link #LOG_INTERVAL_SECONDS} seconds, with how many requests were turned
 * away meanwhile (a log line per rejection would add to the overload).
 *
 * <p>Cost per request while there is room: one compare-and-set to take a turn, one increment to
 * give it back, and a wrapped callback. The waiting room (a lock, a queue, a timer per waiting
 * request) is only entered when every turn is taken. Jetty's {@code QoSHandler}, which did this
 * before, took a read-write lock and added a stream wrapper on every request.
 */
public final class ConcurrencyLimitHandler extends Handler.Wrapper {
  private static final Logger log = Logger.getLogger(ConcurrencyLimitHandler.class.getName());

  /** Seconds a client is asked to wait before it retries. */
  static final String RETRY_AFTER_SECONDS = "1";

  static final long LOG_INTERVAL_SECONDS = 10;

  private static final AtomicIntegerFieldUpdater<Turn> GIVEN =
      AtomicIntegerFieldUpdater.newUpdater(Turn.class, "given");

  private final Capacity capacity;
  private final int maxWaiting;

  /** Turns free now. */
  private final AtomicInteger free;

  /** Guards {@link #waiting}. */
  private final Object lock = new Object();

  private final ArrayDeque<Waiting> waiting = new ArrayDeque<>();

  /** {@code waiting.size()}, readable without the lock. */
  private volatile int waitingCount;

  private final AtomicLong rejected = new AtomicLong();
  private final AtomicLong rejectedSinceLog = new AtomicLong();
  private final AtomicLong nextLogNanos = new AtomicLong(System.nanoTime());

  public ConcurrencyLimitHandler(Capacity capacity) {
    this.capacity = capacity;
    this.free = new AtomicInteger(capacity.maxConcurrentRequests());
    this.maxWaiting = capacity.maxQueueWait().isZero() ? 0 : capacity.maxQueuedRequests();
  }

  public ConcurrencyLimitHandler(Capacity capacity, Handler next) {
    this(capacity);
    setHandler(next);
  }

  public Capacity capacity() {
    return capacity;
  }

  /** Requests turned away with 503 since the server started. */
  public long rejectedCount() {
    return rejected.get();
  }

  /** Requests waiting for a turn now. */
  public int waitingCount() {
    return waitingCount;
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    // Nobody waits: take a turn if there is one (no queue to jump).
    if (waitingCount == 0 && tryTake()) {
      return handleWithTurn(request, response, callback);
    }
    Waiting entry;
    synchronized (lock) {
      if (waiting.isEmpty() && tryTake()) {
        entry = null;
      } else if (waiting.size() >= maxWaiting) {
        rejected(request, "the queue is full");
        reject(request, response, callback);
        return true;
      } else {
        entry = new Waiting(request, response, callback);
        waiting.addLast(entry);
        waitingCount = waiting.size();
      }
    }
    if (entry == null) {
      return handleWithTurn(request, response, callback);
    }
    Scheduler scheduler = request.getComponents().getScheduler();
    entry.timer =
        scheduler.schedule(
            () -> expire(entry), capacity.maxQueueWait().toNanos(), TimeUnit.NANOSECONDS);
    // A turn given back while this one joined the queue would otherwise be missed.
    passTurnsOn();
    return true;
  }

  private boolean tryTake() {
    for (int n = free.get(); n > 0; n = free.get()) {
      if (free.compareAndSet(n, n - 1)) {
        return true;
      }
    }
    return false;
  }

  /** Runs the request on a turn it holds; the turn is given back when its callback completes. */
  private boolean handleWithTurn(Request request, Response response, Callback callback)
      throws Exception {
    Turn turn = new Turn(callback);
    boolean handled;
    try {
      handled = super.handle(request, response, turn);
    } catch (Throwable t) {
      turn.giveBack();
      throw t;
    }
    if (!handled) {
      turn.giveBack();
    }
    return handled;
  }

  private void giveBack() {
    free.incrementAndGet();
    if (waitingCount > 0) {
      passTurnsOn();
    }
  }

  /** Gives the free turns to the requests waiting longest, each resumed on a pool thread. */
  private void passTurnsOn() {
    while (true) {
      Waiting next;
      synchronized (lock) {
        if (waiting.isEmpty() || !tryTake()) {
          return;
        }
        next = waiting.pollFirst();
        waitingCount = waiting.size();
      }
      Scheduler.Task timer = next.timer;
      if (timer != null) {
        timer.cancel(); // else it fires later and finds the request gone from the queue
      }
      next.request.getContext().execute(next::resume);
    }
  }

  private void expire(Waiting entry) {
    synchronized (lock) {
      if (!waiting.remove(entry)) {
        return; // it got its turn meanwhile
      }
      waitingCount = waiting.size();
    }
    entry.request.getContext().execute(entry::expired);
  }

  private void reject(Request request, Response response, Callback callback) {
    if (response.isCommitted()) {
      callback.failed(new IllegalStateException("response already committed"));
      return;
    }
    response.getHeaders().put(HttpHeader.RETRY_AFTER, RETRY_AFTER_SECONDS);
    Response.writeError(request, response, callback, HttpStatus.SERVICE_UNAVAILABLE_503);
  }

  private void rejected(Request request, String why) {
    rejected.incrementAndGet();
    rejectedSinceLog.incrementAndGet();
    long now = System.nanoTime();
    long next = nextLogNanos.get();
    if (now - next >= 0
        && nextLogNanos.compareAndSet(next, now + TimeUnit.SECONDS.toNanos(LOG_INTERVAL_SECONDS))) {
      long total = rejectedSinceLog.getAndSet(0);
      log.warning(
          String.format(
              "overloaded: answered 503 to %d request(s) since the last report, e.g. %s %s (%s);"
                  + " at most %d requests run at once and %d wait",
              total,
              request.getMethod(),
              request.getHttpURI().getPath(),
              why,
              capacity.maxConcurrentRequests(),
              capacity.maxQueuedRequests()));
    }
  }

  /** A running request's callback: gives its turn back, once, when it completes. */
  private final class Turn extends Callback.Nested {
    /** 1 once given back; a field, not an AtomicInteger: one object less per request. */
    volatile int given;

    Turn(Callback callback) {
      super(callback);
    }

    void giveBack() {
      if (GIVEN.compareAndSet(this, 0, 1)) {
        ConcurrencyLimitHandler.this.giveBack();
      }
    }

    /** After the request's callback succeeded or failed. */
    @Override
    public void completed() {
      giveBack();
    }
  }

  /** A request waiting for a turn. */
  private final class Waiting {
    final Request request;
    final Response response;
    final Callback callback;

    /** Set just after it joined the queue: null if its turn came first. */
    volatile Scheduler.Task timer;

    Waiting(Request request, Response response, Callback callback) {
      this.request = request;
      this.response = response;
      this.callback = callback;
    }

    /** Its turn came (it holds one). */
    void resume() {
      try {
        if (!handleWithTurn(request, response, callback)) {
          Response.writeError(request, response, callback, HttpStatus.NOT_FOUND_404);
        }
      } catch (Throwable failure) {
        Response.writeError(
            request, response, callback, HttpStatus.INTERNAL_SERVER_ERROR_500, null, failure);
      }
    }

    /** It waited too long. No failure passed on: a timeout here is the expected outcome. */
    void expired() {
      rejected(request, "it waited " + capacity.maxQueueWait().toMillis() + " ms for a turn");
      reject(request, response, callback);
    }
  }
}
