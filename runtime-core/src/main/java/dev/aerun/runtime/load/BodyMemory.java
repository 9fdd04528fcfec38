package dev.aerun.runtime.load;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * The heap that buffered bodies may take in one JVM: legacy mode holds whole request and response
 * bodies in memory (the front end's copy of each request, the runtime's capture of each response),
 * so without a bound a few concurrent large bodies exhaust the heap. Every such buffer reserves its
 * bytes here as they arrive, before it allocates them, and gives them back when the exchange ends.
 *
 * <p>A reservation that does not fit <b>waits</b>, without blocking a thread, for memory others
 * give back, in the order the requests arrived, for at most {@link #maxWait()} (30 s by default);
 * only then, or at once for a body that can never fit, is the request answered {@code 503}. So a
 * burst of large bodies is served a few at a time instead of refused at once.
 *
 * <p>Why waiting cannot deadlock, although a buffer holds what it has while it waits for more:
 *
 * <ul>
 *   <li>Request bodies and response bodies have separate {@link Pool}s, half the budget each. A
 *       request's memory goes back only after its response went out, which needs response memory; a
 *       response's goes back once the client has it, which needs nothing more. With one pool,
 *       requests could hold all of it while their responses wait for it.
 *   <li>Within a pool, the last part of it (one body, {@link #ONE_BODY}, or half the pool on a
 *       small heap) is kept back: when the next buffer in line does not fit and the pool is not
 *       into that part, the buffer becomes the pool's one <em>owner</em> and may use it until its
 *       body is complete, so it never waits. Nobody else uses that part until the pool is out of it
 *       again, which happens once that body is given back. So someone always progresses (on a heap
 *       too small to keep one body back, a wait may still end in 503), and the two pools never hold
 *       more than the budget.
 * </ul>
 *
 * <p>One budget per JVM, of {@link #bytesForHeap} for its heap: a front end and a runtime in the
 * same process share it, as they share the heap. Thread-safe.
 */
public final class BodyMemory {
  private static final Logger log = Logger.getLogger(BodyMemory.class.getName());

  /** The share of the maximum heap buffered bodies may take: the rest is the app's and Jetty's. */
  static final double HEAP_SHARE = 0.5;

  static final long LOG_INTERVAL_SECONDS = 10;

  /**
   * The most one body may hold, the platform's body limit: what a pool keeps back for its owner.
   */
  public static final long ONE_BODY = 32L * 1024 * 1024;

  /** How long a reservation waits for memory by default before its request gets 503. */
  public static final Duration DEFAULT_WAIT = Duration.ofSeconds(30);

  private static final AtomicLong ARRIVALS = new AtomicLong();

  private final long limit;
  private final Duration maxWait;
  private final Pool requests;
  private final Pool responses;
  private final AtomicLong refusedSinceLog = new AtomicLong();
  private final AtomicLong nextLogNanos = new AtomicLong(System.nanoTime());

  /** A budget of {@code limitBytes} ({@link #bytesForHeap} for a JVM's), waiting up to 30 s. */
  public BodyMemory(long limitBytes) {
    this(limitBytes, DEFAULT_WAIT);
  }

  /**
   * @param limitBytes the budget ({@link #bytesForHeap} for a JVM's), split between the pools
   * @param maxWait how long a reservation may wait for memory; zero: never, 503 at once
   */
  public BodyMemory(long limitBytes, Duration maxWait) {
    if (limitBytes <= 1) {
      throw new IllegalArgumentException("limit must be over 1 byte: " + limitBytes);
    }
    if (maxWait.isNegative()) {
      throw new IllegalArgumentException("wait must not be negative: " + maxWait);
    }
    this.limit = limitBytes;
    this.maxWait = maxWait;
    this.requests = new Pool("request", limitBytes / 2);
    this.responses = new Pool("response", limitBytes - limitBytes / 2);
  }

  /** The budget of a JVM whose heap may grow to {@code maxHeapBytes} ({@code -Xmx}): half of it. */
  public static long bytesForHeap(long maxHeapBytes) {
    return (long) (maxHeapBytes * HEAP_SHARE);
  }

  /** The pool of request bodies (the front end's copies). */
  public Pool requests() {
    return requests;
  }

  /** The pool of response bodies (the runtime's captures, then the front end's copies). */
  public Pool responses() {
    return responses;
  }

  /** Bytes reserved now, in both pools. */
  public long used() {
    return requests.used() + responses.used();
  }

  public long limit() {
    return limit;
  }

  public Duration maxWait() {
    return maxWait;
  }

  /**
   * Who reserves: one body's buffer, in the order its request arrived (the order waits are served
   * in).
   */
  public static final class Holder {
    private final long arrival = ARRIVALS.incrementAndGet();

    /** A holder that arrived now. */
    public Holder() {}
  }

  /** Logs refusals at most once per {@link #LOG_INTERVAL_SECONDS}: overload adds no log flood. */
  private void refused(String pool) {
    long total = refusedSinceLog.incrementAndGet();
    long now = System.nanoTime();
    long next = nextLogNanos.get();
    if (now - next >= 0
        && nextLogNanos.compareAndSet(next, now + TimeUnit.SECONDS.toNanos(LOG_INTERVAL_SECONDS))) {
      refusedSinceLog.addAndGet(-total);
      log.warning(
          String.format(
              "overloaded: buffered %s bodies could not fit in %d MiB of heap within %d s (%d"
                  + " MiB held); answered 503 to %d request(s) since the last report",
              pool, limit >> 20, maxWait.toSeconds(), used() >> 20, total));
    }
  }

  /** A waiting reservation. */
  private static final class Waiter {
    final Holder holder;
    final long bytes;
    final Executor executor;
    final Runnable granted;
    final Runnable refused;
    Scheduler.Task timer;

    Waiter(Holder holder, long bytes, Executor executor, Runnable granted, Runnable refused) {
      this.holder = holder;
      this.bytes = bytes;
      this.executor = executor;
      this.granted = granted;
      this.refused = refused;
    }

    void run(Runnable task) {
      try {
        executor.execute(task);
      } catch (RejectedExecutionException stopping) {
        task.run();
      }
    }
  }

  /** Half of the budget, with its own line of waiting reservations. */
  public final class Pool {
    private final String name;
    private final long capacity;
    private final long poolLimit;
    // Guarded by this.
    private long used;
    private Holder owner;
    private final PriorityQueue<Waiter> waiters =
        new PriorityQueue<>(Comparator.comparingLong((Waiter w) -> w.holder.arrival));

    private Pool(String name, long capacity) {
      this.name = name;
      this.capacity = capacity;
      this.poolLimit = capacity - Math.min(ONE_BODY, capacity / 2);
    }

    /** The most this pool ever holds: its share of the budget. */
    public long capacity() {
      return capacity;
    }

    /** Whether a body of {@code bytes} can ever fit: if not, its request gets 503 at once. */
    public boolean canEverFit(long bytes) {
      return bytes <= capacity();
    }

    /**
     * Reserves {@code bytes} for {@code holder} if they fit now and nobody who arrived earlier is
     * waiting.
     *
     * @return false, reserving nothing, when they do not: {@link #await} then
     */
    public synchronized boolean tryReserve(long bytes, Holder holder) {
      Waiter first = waiters.peek();
      if (holder != owner && first != null && first.holder.arrival < holder.arrival) {
        return false;
      }
      return fits(bytes, holder);
    }

    /** Reserves if {@code bytes} fit for {@code holder}, making it the owner if it must. */
    private boolean fits(long bytes, Holder holder) {
      if (holder == owner || owner == null && used <= poolLimit) {
        if (used + bytes <= poolLimit) {
          used += bytes;
          return true;
        }
        if (used + bytes <= capacity) {
          owner = holder; // past the limit: the one body allowed to be (see BodyMemory)
          used += bytes;
          return true;
        }
        return false;
      }
      if (used + bytes <= poolLimit) {
        used += bytes;
        return true;
      }
      return false;
    }

    /**
     * Waits, never blocking, until {@code bytes} are reserved for {@code holder}, in the order the
     * holders arrived, then runs {@code granted} on {@code executor}; or, if that takes longer than
     * {@link #maxWait()} or the bytes can never fit, runs {@code refused} there instead. Exactly
     * one of them runs.
     */
    public void await(
        long bytes,
        Holder holder,
        Executor executor,
        Scheduler scheduler,
        Runnable granted,
        Runnable refused) {
      Waiter waiter = new Waiter(holder, bytes, executor, granted, refused);
      boolean now;
      synchronized (this) {
        now = tryReserve(bytes, holder);
        if (!now && canEverFit(bytes) && maxWait.toNanos() > 0) {
          waiters.add(waiter);
          waiter.timer =
              scheduler.schedule(() -> expire(waiter), maxWait.toNanos(), TimeUnit.NANOSECONDS);
          return;
        }
      }
      if (now) {
        waiter.run(granted);
      } else {
        BodyMemory.this.refused(name);
        waiter.run(refused);
      }
    }

    private void expire(Waiter waiter) {
      List<Waiter> granted;
      synchronized (this) {
        if (!waiters.remove(waiter)) {
          return; // granted meanwhile
        }
        granted = grant();
      }
      BodyMemory.this.refused(name);
      waiter.run(waiter.refused);
      granted.forEach(w -> w.run(w.granted));
    }

    /** The waiters that fit now, in order, their bytes reserved. Guarded by this. */
    private List<Waiter> grant() {
      List<Waiter> granted = new ArrayList<>(0);
      Waiter first;
      while ((first = waiters.peek()) != null && fits(first.bytes, first.holder)) {
        waiters.poll();
        if (first.timer != null) {
          first.timer.cancel();
        }
        granted.add(first);
      }
      return granted;
    }

    /**
     * Counts {@code bytes} that are already held (e.g. a response that arrived whole), room or not.
     */
    public synchronized void reserve(long bytes) {
      used += bytes;
    }

    /** Gives back {@code bytes} reserved earlier; waiters that fit now go on. */
    public void release(long bytes) {
      List<Waiter> granted;
      synchronized (this) {
        used -= bytes;
        granted = grant();
      }
      granted.forEach(w -> w.run(w.granted));
    }

    /**
     * {@code holder}'s body is complete: it reserves nothing more, so it no longer owns the room
     * past the limit.
     */
    public void finished(Holder holder) {
      List<Waiter> granted;
      synchronized (this) {
        if (owner != holder) {
          return;
        }
        owner = null;
        granted = grant();
      }
      granted.forEach(w -> w.run(w.granted));
    }

    /** Stops {@code holder}'s wait, if any: neither of its runnables will run. */
    public void cancel(Holder holder) {
      List<Waiter> granted;
      synchronized (this) {
        if (!waiters.removeIf(w -> w.holder == holder && cancelTimer(w))) {
          return;
        }
        granted = grant();
      }
      granted.forEach(w -> w.run(w.granted));
    }

    private static boolean cancelTimer(Waiter waiter) {
      if (waiter.timer != null) {
        waiter.timer.cancel();
      }
      return true;
    }

    /** Bytes reserved now. */
    public synchronized long used() {
      return used;
    }

    /** What anyone may use; past it, only the owner (see {@link BodyMemory}). */
    public long limit() {
      return poolLimit;
    }
  }
}
