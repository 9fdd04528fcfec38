package dev.aerun.bench.app;

import com.sun.management.GarbageCollectionNotificationInfo;
import com.sun.management.GcInfo;
import com.sun.management.OperatingSystemMXBean;
import com.sun.management.ThreadMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * The server process's counters, read from inside it by the benchmark app, so that every peer (bare
 * Jetty, HttpConnector mode, legacy mode) is measured by the same code.
 *
 * <ul>
 *   <li>{@code allocatedBytes}: bytes allocated on the Java heap so far by the threads of the
 *       process (Jetty's, gRPC's, the JDK's, the app's), from {@link
 *       ThreadMXBean#getThreadAllocatedBytes(long[])}, summed as each thread's growth since the
 *       previous reading: a thread that ended since then takes along only what it allocated after
 *       that reading (summing the live threads' totals instead made a window in which a pool thread
 *       exited come out negative). A caller compares two readings taken a short time apart.
 *   <li>{@code gcFreedBytes} and {@code heapUsed}: the cross-check. What every collection freed
 *       (heap used before minus after, from the collectors' notifications) plus the growth of the
 *       heap in use is what the process allocated, dead threads included; it is coarse (the heap in
 *       use grows by whole TLABs, and notifications arrive a little after their collection).
 *   <li>{@code processCpuNanos}: CPU time of the whole process, every thread including the JVM's
 *       own (compiler, GC), from {@link OperatingSystemMXBean#getProcessCpuTime()}.
 *   <li>{@code heapAfterGc}: the heap in use right after the last full collection that {@link
 *       #measureHeapAfterGc()} ran (inside the echo servlet), or -1.
 * </ul>
 */
public final class ProcessStats {
  private static final AtomicLong GC_FREED = new AtomicLong();
  private static final AtomicLong GC_PAUSE_MILLIS = new AtomicLong();
  private static final NotificationListener LISTENER = ProcessStats::onGc;
  private static final List<NotificationEmitter> FOLLOWED = new ArrayList<>();
  private static volatile long heapAfterGc = -1;

  private ProcessStats() {}

  /** Starts following the collectors; call when the app starts. */
  public static synchronized void start() {
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      if (gc instanceof NotificationEmitter emitter && !FOLLOWED.contains(emitter)) {
        emitter.addNotificationListener(LISTENER, null, null);
        FOLLOWED.add(emitter);
      }
    }
  }

  /** Stops following the collectors; call when the app stops, so nothing of it stays behind. */
  public static synchronized void stop() {
    for (NotificationEmitter emitter : FOLLOWED) {
      try {
        emitter.removeNotificationListener(LISTENER);
      } catch (ListenerNotFoundException ignored) {
        // Already gone.
      }
    }
    FOLLOWED.clear();
  }

  private static void onGc(Notification notification, Object handback) {
    if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(
        notification.getType())) {
      return;
    }
    GcInfo gc =
        GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData())
            .getGcInfo();
    GC_FREED.addAndGet(
        Math.max(0, used(gc.getMemoryUsageBeforeGc()) - used(gc.getMemoryUsageAfterGc())));
    GC_PAUSE_MILLIS.addAndGet(gc.getDuration());
  }

  private static long used(Map<String, MemoryUsage> pools) {
    return pools.values().stream().mapToLong(MemoryUsage::getUsed).sum();
  }

  /**
   * Runs a full collection ({@link System#gc()}) and keeps the heap in use right after it: the live
   * data of the whole process at this moment.
   */
  public static void measureHeapAfterGc() {
    System.gc();
    heapAfterGc = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  /** Each thread's allocation at the previous reading, by thread id (never reused). */
  private static Map<Long, Long> lastAllocated = new HashMap<>();

  private static long allocatedSoFar;

  /** The allocation so far: every thread's growth since the previous reading added up. */
  static synchronized long allocated(long[] ids, long[] bytes) {
    Map<Long, Long> now = new HashMap<>(ids.length * 2);
    for (int i = 0; i < ids.length; i++) {
      if (bytes[i] < 0) {
        continue; // the thread ended while being read
      }
      now.put(ids[i], bytes[i]);
      Long before = lastAllocated.get(ids[i]);
      allocatedSoFar += before == null ? bytes[i] : Math.max(0, bytes[i] - before);
    }
    lastAllocated = now;
    return allocatedSoFar;
  }

  /** All the counters, as one JSON object. */
  public static String json() {
    ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
    long[] ids = threads.getAllThreadIds();
    OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    // Concatenated, not formatted: what the stats request allocates is taken off each window.
    return "{\"threads\":"
        + ids.length
        + ",\"allocatedBytes\":"
        + allocated(ids, threads.getThreadAllocatedBytes(ids))
        + ",\"processCpuNanos\":"
        + os.getProcessCpuTime()
        + ",\"heapUsed\":"
        + ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed()
        + ",\"gcFreedBytes\":"
        + GC_FREED.get()
        + ",\"gcPauseMillis\":"
        + GC_PAUSE_MILLIS.get()
        + ",\"heapAfterGc\":"
        + heapAfterGc
        + "}";
  }
}
