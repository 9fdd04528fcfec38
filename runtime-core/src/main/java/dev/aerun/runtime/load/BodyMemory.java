package dev.aerun.runtime.load;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;

/**
 * The heap that buffered bodies may take in one JVM: legacy mode holds whole request and response
 * bodies in memory (the front end's copy of each request, the runtime's capture of each response),
 * so without a bound a few concurrent large bodies exhaust the heap. Every such buffer reserves its
 * bytes here as they arrive, before it allocates them, and gives them back when the exchange ends;
 * a reservation that would pass {@link #limit()} is refused and the request gets a fast {@code
 * 503}.
 *
 * <p>One budget per JVM, of {@link #bytesForHeap} for its heap: a front end and a runtime in the
 * same process share it, as they share the heap. Thread-safe, lock-free.
 */
public final class BodyMemory {
  private static final Logger log = Logger.getLogger(BodyMemory.class.getName());

  /** The share of the maximum heap buffered bodies may take: the rest is the app's and Jetty's. */
  static final double HEAP_SHARE = 0.5;

  static final long LOG_INTERVAL_SECONDS = 10;

  private final long limit;
  private final AtomicLong used = new AtomicLong();
  private final AtomicLong refusedSinceLog = new AtomicLong();
  private final AtomicLong nextLogNanos = new AtomicLong(System.nanoTime());

  /** A budget of {@code limitBytes}: {@link #bytesForHeap} for a JVM's. */
  public BodyMemory(long limitBytes) {
    if (limitBytes <= 0) {
      throw new IllegalArgumentException("limit must be positive: " + limitBytes);
    }
    this.limit = limitBytes;
  }

  /** The budget of a JVM whose heap may grow to {@code maxHeapBytes} ({@code -Xmx}): half of it. */
  public static long bytesForHeap(long maxHeapBytes) {
    return (long) (maxHeapBytes * HEAP_SHARE);
  }

  /**
   * Reserves {@code bytes} if the budget has room for them.
   *
   * @return false, reserving nothing, when it has not
   */
  public boolean tryReserve(long bytes) {
    while (true) {
      long now = used.get();
      if (now + bytes > limit) {
        refused(bytes);
        return false;
      }
      if (used.compareAndSet(now, now + bytes)) {
        return true;
      }
    }
  }

  /**
   * Counts {@code bytes} that are already held (e.g. a response that arrived whole), room or not.
   */
  public void reserve(long bytes) {
    used.addAndGet(bytes);
  }

  /** Gives back {@code bytes} reserved earlier. */
  public void release(long bytes) {
    used.addAndGet(-bytes);
  }

  /** Bytes reserved now. */
  public long used() {
    return used.get();
  }

  public long limit() {
    return limit;
  }

  /** Logs refusals at most once per {@link #LOG_INTERVAL_SECONDS}: overload adds no log flood. */
  private void refused(long bytes) {
    long total = refusedSinceLog.incrementAndGet();
    long now = System.nanoTime();
    long next = nextLogNanos.get();
    if (now - next >= 0
        && nextLogNanos.compareAndSet(next, now + TimeUnit.SECONDS.toNanos(LOG_INTERVAL_SECONDS))) {
      refusedSinceLog.addAndGet(-total);
      log.warning(
          String.format(
              "overloaded: buffered bodies would pass %d MiB of heap (%d MiB held); answered 503"
                  + " to %d request(s) since the last report",
              limit >> 20, used.get() >> 20, total));
    }
  }
}
