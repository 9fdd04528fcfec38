package dev.aerun.runtime.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.util.thread.ScheduledExecutorScheduler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The budget of legacy mode's buffered bodies: waits in arrival order, bounded, never stuck. */
class BodyMemoryTest {
  private static final long MIB = 1024 * 1024;
  private static final Executor NOW = Runnable::run;

  private final ScheduledExecutorScheduler scheduler = new ScheduledExecutorScheduler();
  private final BlockingQueue<String> events = new LinkedBlockingQueue<>();

  @BeforeEach
  void start() throws Exception {
    scheduler.start();
  }

  @AfterEach
  void stop() throws Exception {
    scheduler.stop();
  }

  private void await(BodyMemory.Pool pool, long bytes, BodyMemory.Holder holder, String name) {
    pool.await(
        bytes,
        holder,
        NOW,
        scheduler,
        () -> events.add(name + " granted"),
        () -> events.add(name + " refused"));
  }

  @Test
  void waitsAreServedInArrivalOrder_asMemoryComesBack() throws Exception {
    // 256 MiB: each pool 128 MiB, of which 32 MiB are kept back for one owner.
    BodyMemory memory = new BodyMemory(256 * MIB);
    BodyMemory.Pool pool = memory.requests();
    BodyMemory.Holder first = new BodyMemory.Holder();
    BodyMemory.Holder second = new BodyMemory.Holder();
    BodyMemory.Holder third = new BodyMemory.Holder();
    assertTrue(pool.tryReserve(96 * MIB, first));

    // The third arrived last but asks first: the second still goes first.
    await(pool, 40 * MIB, third, "third");
    await(pool, 40 * MIB, second, "second");
    assertEquals(null, events.poll());
    assertFalse(pool.tryReserve(MIB, new BodyMemory.Holder()), "no jumping the line");

    pool.release(96 * MIB);

    assertEquals("second granted", events.poll(5, TimeUnit.SECONDS));
    assertEquals("third granted", events.poll(5, TimeUnit.SECONDS));
    assertEquals(80 * MIB, pool.used());
  }

  @Test
  void aWaitThatLastsTooLong_isRefused_andGivesNothingAway() throws Exception {
    BodyMemory memory = new BodyMemory(256 * MIB, Duration.ofMillis(200));
    BodyMemory.Pool pool = memory.responses();
    assertTrue(pool.tryReserve(128 * MIB, new BodyMemory.Holder()));

    await(pool, MIB, new BodyMemory.Holder(), "late");

    assertEquals("late refused", events.poll(5, TimeUnit.SECONDS));
    assertEquals(128 * MIB, pool.used());
  }

  @Test
  void aBodyThatCanNeverFit_isRefusedAtOnce() throws Exception {
    BodyMemory memory = new BodyMemory(64 * MIB);
    BodyMemory.Pool pool = memory.requests();

    assertFalse(pool.canEverFit(33 * MIB));
    await(pool, 33 * MIB, new BodyMemory.Holder(), "huge");

    assertEquals("huge refused", events.poll(0, TimeUnit.SECONDS));
  }

  @Test
  void whenEveryoneHoldsAndWaits_theFirstInLineTakesTheReserve_andFinishes() throws Exception {
    // Eight bodies of 30 MiB grow together in 1 MiB blocks in a pool of 128 MiB: without the
    // part kept back for one owner they would all wait for each other forever.
    BodyMemory memory = new BodyMemory(256 * MIB);
    BodyMemory.Pool pool = memory.responses();
    List<BodyMemory.Holder> holders = new CopyOnWriteArrayList<>();
    long[] held = new long[8];
    for (int i = 0; i < 8; i++) {
      holders.add(new BodyMemory.Holder());
    }
    boolean progress = true;
    while (progress) {
      progress = false;
      for (int i = 0; i < 8; i++) {
        if (held[i] < 30 * MIB && pool.tryReserve(MIB, holders.get(i))) {
          held[i] += MIB;
          progress = true;
        }
      }
    }
    assertTrue(pool.used() <= pool.capacity());
    int done = 0;
    for (int i = 0; i < 8; i++) {
      done += held[i] == 30 * MIB ? 1 : 0;
    }
    assertTrue(done >= 1, "someone must be able to finish: " + java.util.Arrays.toString(held));
    // The one that finished gives its memory back once its response left; the others go on.
    for (int i = 0; i < 8; i++) {
      if (held[i] == 30 * MIB) {
        pool.finished(holders.get(i));
        pool.release(held[i]);
        held[i] = 0;
      }
    }
    assertTrue(pool.used() <= pool.limit(), "back under the limit: " + pool.used());
  }
}
