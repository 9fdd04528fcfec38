package dev.aerun.runtime.server;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.eclipse.jetty.util.component.ContainerLifeCycle;
import org.eclipse.jetty.util.component.LifeCycle;

/**
 * A server the runtime runs, in any mode and role, made of parts that start in order: whatever
 * deploys the app first, whatever serves it next, and last the {@link Entrance} that takes requests
 * from outside (a public port, or the gRPC service a front end calls).
 *
 * <ul>
 *   <li>{@link #start()} starts each part once the one before it is up. If a part fails, the parts
 *       already started, and the one that failed half-way, are stopped again in reverse order and
 *       the failure is thrown: nothing is left half-started, and the entrance never opened.
 *   <li>{@link #drain(Duration)} closes the entrance to new requests and waits, up to a grace
 *       period, for those in flight.
 *   <li>{@link #stop()} stops the parts in reverse order, the entrance first, ending whatever still
 *       runs.
 *   <li>{@link #join()} blocks until the server stopped.
 * </ul>
 *
 * <p>Start and stop in order, and the rollback of a failed start, are Jetty's {@link
 * ContainerLifeCycle}'s: a subclass adds its parts in its constructor, in start order, with {@link
 * #addPart}, and its entrance last with {@link #addEntrance}. Not thread-safe while it is built;
 * once built, its lifecycle methods may be called from any thread.
 */
public abstract class RuntimeServer extends ContainerLifeCycle {
  /** The part that takes requests from outside, and can stop taking them without dropping any. */
  public interface Entrance extends LifeCycle {
    /**
     * Stops taking new requests and waits up to {@code grace} for those in flight; {@link
     * LifeCycle#stop()} next ends whatever still runs.
     *
     * @return true if every request finished in time
     */
    boolean drain(Duration grace) throws InterruptedException;

    /**
     * Where clients reach it once started, as the start line shows it: {@code
     * http://localhost:8080/}, {@code tcp:127.0.0.1:7000}.
     */
    String endpoint();
  }

  private final List<LifeCycle> parts = new ArrayList<>();
  private Entrance entrance;
  private volatile CountDownLatch stopped = new CountDownLatch(0);

  /** Adds {@code part}, to start after the parts added before it and stop before them. */
  protected final void addPart(LifeCycle part) {
    if (entrance != null) {
      throw new IllegalStateException("the entrance is the last part");
    }
    parts.add(part);
    addBean(part, true);
  }

  /** Adds the part that takes requests from outside: the last to start, the first to stop. */
  protected final void addEntrance(Entrance part) {
    addPart(part);
    entrance = part;
  }

  @Override
  protected void doStart() throws Exception {
    if (entrance == null) {
      throw new IllegalStateException(getClass().getSimpleName() + " has no entrance");
    }
    stopped = new CountDownLatch(1);
    try {
      super.doStart(); // on failure, Jetty stops the parts that were running
    } catch (Throwable failure) {
      // The part that failed may have started something of its own (threads, a webapp's class
      // loader and temporary directory) that only its stop undoes.
      List<LifeCycle> reverse = new ArrayList<>(parts);
      Collections.reverse(reverse);
      for (LifeCycle part : reverse) {
        if (part.isFailed()) {
          try {
            part.stop();
          } catch (Throwable suppressed) {
            failure.addSuppressed(suppressed);
          }
        }
      }
      stopped.countDown();
      throw failure;
    }
  }

  @Override
  protected void doStop() throws Exception {
    try {
      super.doStop();
    } finally {
      stopped.countDown();
    }
  }

  /**
   * Closes the entrance to new requests and waits up to {@code grace} for those in flight (see
   * {@link Entrance#drain}); {@link #stop()} next ends whatever still runs. At once if not started.
   *
   * @return true if every request finished in time
   */
  public boolean drain(Duration grace) throws InterruptedException {
    return entrance == null || !entrance.isRunning() || entrance.drain(grace);
  }

  /** Where clients reach the server once started (see {@link Entrance#endpoint()}). */
  public String endpoint() {
    if (entrance == null) {
      throw new IllegalStateException(getClass().getSimpleName() + " has no entrance");
    }
    return entrance.endpoint();
  }

  /** Blocks until the server stopped; at once if it is not running. */
  public void join() throws InterruptedException {
    stopped.await();
  }
}
