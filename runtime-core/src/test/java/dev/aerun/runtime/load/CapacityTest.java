package dev.aerun.runtime.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.junit.jupiter.api.Test;

class CapacityTest {
  private static final long MIB = 1024 * 1024;

  @Test
  void forHeap_oneRunningRequestPer8MiB() {
    Capacity capacity = Capacity.forHeap(512 * MIB);

    assertEquals(64, capacity.maxConcurrentRequests());
    assertEquals(64, capacity.maxQueuedRequests());
    assertEquals(Duration.ofSeconds(1), capacity.maxQueueWait());
    assertFalse(capacity.virtualThreads());
  }

  @Test
  void forHeap_smallHeapStillRunsEight() {
    assertEquals(8, Capacity.forHeap(16 * MIB).maxConcurrentRequests());
  }

  @Test
  void forHeap_hugeHeapIsCappedAt1000() {
    assertEquals(1000, Capacity.forHeap(64L * 1024 * MIB).maxConcurrentRequests());
  }

  @Test
  void maxThreads_coversEveryRunningRequestPlusJettysOwnWork() {
    assertEquals(10 + 16, Capacity.forHeap(512 * MIB).withMaxConcurrentRequests(10).maxThreads());
  }

  @Test
  void invalidValuesAreRefused() {
    Capacity capacity = Capacity.forHeap(512 * MIB);
    assertThrows(IllegalArgumentException.class, () -> capacity.withMaxConcurrentRequests(0));
    assertThrows(IllegalArgumentException.class, () -> capacity.withMaxQueuedRequests(-1));
    assertThrows(
        IllegalArgumentException.class, () -> capacity.withMaxQueueWait(Duration.ofMillis(-1)));
  }

  @Test
  void virtualThreads_onlyWhereTheJvmHasThem() {
    boolean jvmHasThem = Runtime.version().feature() >= 21;
    Capacity capacity = Capacity.forHeap(512 * MIB).withVirtualThreads(true);

    assertEquals(jvmHasThem, Capacity.virtualThreadsAvailable());
    assertEquals(jvmHasThem, capacity.usesVirtualThreads());
    QueuedThreadPool pool = capacity.newThreadPool("test");
    if (jvmHasThem) {
      assertNotNull(pool.getVirtualThreadsExecutor());
    } else {
      assertNull(pool.getVirtualThreadsExecutor());
    }
    assertEquals(capacity.maxThreads(), pool.getMaxThreads());
    assertEquals("test", pool.getName());
  }

  @Test
  void platformThreadsByDefault() {
    assertNull(Capacity.forHeap(512 * MIB).newThreadPool("test").getVirtualThreadsExecutor());
  }
}
