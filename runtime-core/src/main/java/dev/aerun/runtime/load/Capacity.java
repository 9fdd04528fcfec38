package dev.aerun.runtime.load;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executor;
import org.eclipse.jetty.util.VirtualThreads;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * How many requests an instance runs at once, how many more may wait for a turn and for how long,
 * and whether requests run on virtual threads. Immutable.
 *
 * <p>The bound is what keeps an overloaded instance alive: beyond {@link #maxConcurrentRequests()}
 * requests wait (without holding a thread, and, in legacy mode, before their body is buffered), and
 * beyond {@link #maxQueuedRequests()} or after {@link #maxQueueWait()} they get a fast {@code 503}
 * with {@code Retry-After}, so memory stays bounded by the running requests. Virtual threads remove
 * the thread limit, not the need for this one.
 *
 * @param maxConcurrentRequests requests handled at once; at least 1
 * @param maxQueuedRequests requests that may wait for a turn; 0 rejects at once
 * @param maxQueueWait how long a request may wait before it is rejected; zero rejects at once,
 *     whatever {@code maxQueuedRequests} says
 * @param virtualThreads whether requests run on virtual threads (only where the JVM has them: see
 *     {@link #virtualThreadsAvailable()})
 */
public record Capacity(
    int maxConcurrentRequests,
    int maxQueuedRequests,
    Duration maxQueueWait,
    boolean virtualThreads) {
  /** The memory a running request is budgeted by default, for {@link #forHeap}. */
  static final long DEFAULT_BYTES_PER_REQUEST = 8L * 1024 * 1024;

  static final int MIN_DEFAULT_CONCURRENCY = 8;
  static final int MAX_DEFAULT_CONCURRENCY = 1000;

  /** The default time a request waits for a turn. */
  public static final Duration DEFAULT_QUEUE_WAIT = Duration.ofSeconds(1);

  /**
   * Threads a server needs besides those running requests: Jetty's acceptor and selectors, its
   * scheduler's work, and the tasks that resume waiting requests.
   */
  static final int THREAD_HEADROOM = 16;

  public Capacity {
    Objects.requireNonNull(maxQueueWait, "maxQueueWait");
    if (maxConcurrentRequests < 1) {
      throw new IllegalArgumentException(
          "max concurrent requests must be at least 1: " + maxConcurrentRequests);
    }
    if (maxQueuedRequests < 0) {
      throw new IllegalArgumentException(
          "max queued requests must not be negative: " + maxQueuedRequests);
    }
    if (maxQueueWait.isNegative()) {
      throw new IllegalArgumentException("max queue wait must not be negative: " + maxQueueWait);
    }
  }

  /**
   * The default for a JVM whose heap may grow to {@code maxHeapBytes}: one running request per 8
   * MiB of heap (a legacy-mode request holding 1 MiB bodies uses about half of that: the front's
   * copy of the request, the runtime's buffered response and its message), between 8 and 1000; as
   * many may wait, for at most {@link #DEFAULT_QUEUE_WAIT}; platform threads.
   */
  public static Capacity forHeap(long maxHeapBytes) {
    long byHeap = maxHeapBytes / DEFAULT_BYTES_PER_REQUEST;
    int concurrency =
        (int) Math.max(MIN_DEFAULT_CONCURRENCY, Math.min(MAX_DEFAULT_CONCURRENCY, byHeap));
    return new Capacity(concurrency, concurrency, DEFAULT_QUEUE_WAIT, false);
  }

  public Capacity withMaxConcurrentRequests(int newMax) {
    return new Capacity(newMax, maxQueuedRequests, maxQueueWait, virtualThreads);
  }

  public Capacity withMaxQueuedRequests(int newMax) {
    return new Capacity(maxConcurrentRequests, newMax, maxQueueWait, virtualThreads);
  }

  public Capacity withMaxQueueWait(Duration newWait) {
    return new Capacity(maxConcurrentRequests, maxQueuedRequests, newWait, virtualThreads);
  }

  public Capacity withVirtualThreads(boolean use) {
    return new Capacity(maxConcurrentRequests, maxQueuedRequests, maxQueueWait, use);
  }

  /** Whether this JVM has virtual threads (Java 21 and later). */
  public static boolean virtualThreadsAvailable() {
    return VirtualThreads.areSupported();
  }

  /** Whether requests will run on virtual threads: asked for, and available. */
  public boolean usesVirtualThreads() {
    return virtualThreads && virtualThreadsAvailable();
  }

  /**
   * The platform threads of a server with this capacity: enough for every running request on its
   * own thread plus Jetty's own work, so that admitted requests never queue inside the pool.
   */
  public int maxThreads() {
    return maxConcurrentRequests + THREAD_HEADROOM;
  }

  /**
   * A thread pool for one server: {@link #maxThreads()} platform threads named {@code name-N}, and,
   * if {@link #usesVirtualThreads()}, virtual threads named {@code name-virtual-N} for the work
   * that may block (the app's servlets).
   */
  public QueuedThreadPool newThreadPool(String name) {
    QueuedThreadPool threads = new QueuedThreadPool(maxThreads());
    threads.setName(name);
    if (usesVirtualThreads()) {
      Executor virtual = VirtualThreads.getNamedVirtualThreadsExecutor(name + "-virtual-");
      threads.setVirtualThreadsExecutor(virtual);
    }
    return threads;
  }
}
