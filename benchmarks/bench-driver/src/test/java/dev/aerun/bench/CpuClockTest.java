package dev.aerun.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.aerun.bench.CpuClock.ProcessCpu;
import dev.aerun.bench.CpuClock.ThreadCpu;
import dev.aerun.bench.CpuClock.ThreadId;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class CpuClockTest {

  @Test
  void window_sumsEachThreadsGrowth() {
    ThreadId pool = new ThreadId(1, 11);
    ThreadId ended = new ThreadId(1, 12);
    ThreadId compiler = new ThreadId(1, 13);
    ThreadId started = new ThreadId(1, 14);
    ProcessCpu before =
        ProcessCpu.reading(
            Map.of(
                pool, new ThreadCpu(1_000, false),
                ended, new ThreadCpu(900_000, false),
                compiler, new ThreadCpu(5_000, true)));
    ProcessCpu after =
        ProcessCpu.reading(
            Map.of(
                pool, new ThreadCpu(3_000, false),
                compiler, new ThreadCpu(5_500, true),
                started, new ThreadCpu(700, false)));

    ProcessCpu window = after.minus(before);

    // 2,000 + 500 + 700: the thread that ended takes nothing out of the window.
    assertEquals(3_200, window.totalNanos());
    assertEquals(500, window.compilerNanos());
  }

  @Test
  void window_unknownWhenEitherReadingIs() {
    ProcessCpu some = ProcessCpu.reading(Map.of(new ThreadId(1, 1), new ThreadCpu(5, false)));
    assertTrue(!some.minus(ProcessCpu.UNKNOWN).known());
    assertTrue(!ProcessCpu.UNKNOWN.minus(some).known());
  }

  /** A real thread of this JVM that used CPU and ended between two readings. */
  @Test
  void aThreadEndingBetweenReadings_doesNotMakeTheWindowNegative() throws Exception {
    long pid = ProcessHandle.current().pid();
    assumeTrue(CpuClock.of(pid).known(), "no /proc here");
    AtomicBoolean stop = new AtomicBoolean();
    CountDownLatch spun = new CountDownLatch(1);
    Thread spinner =
        new Thread(
            () -> {
              long start = System.nanoTime();
              long x = 0;
              while (!stop.get()) {
                x += System.nanoTime() & 7;
                if (System.nanoTime() - start > 300_000_000L) {
                  spun.countDown();
                }
              }
              if (x == 42) {
                System.out.print("");
              }
            },
            "cpu-clock-test-spinner");
    spinner.start();
    spun.await();
    ProcessCpu before = CpuClock.of(pid);
    stop.set(true);
    spinner.join();

    ProcessCpu window = CpuClock.of(pid).minus(before);

    // Summing live threads only, the spinner's 300 ms would come off the window.
    assertTrue(window.totalNanos() >= 0, "window " + window.totalNanos() + " ns");
    assertTrue(window.totalNanos() < 250_000_000L, "window " + window.totalNanos() + " ns");
  }
}
