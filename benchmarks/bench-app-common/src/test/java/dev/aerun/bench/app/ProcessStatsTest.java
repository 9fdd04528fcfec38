package dev.aerun.bench.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ProcessStatsTest {
  @Test
  void aThreadThatEnds_takesAlongOnlyWhatItAllocatedSinceTheLastReading() {
    long[] first = {1, 2};
    long start = ProcessStats.allocated(first, new long[] {100, 200});

    // Thread 2 ended after allocating 20 more; thread 1 allocated 50.
    long afterExit = ProcessStats.allocated(new long[] {1}, new long[] {150});
    // Thread 3 started and allocated 40; thread 1 allocated 10.
    long afterStart = ProcessStats.allocated(new long[] {1, 3}, new long[] {160, 40});

    // Summing the live threads' totals would give 150 - 300 = -150 over the first window.
    assertEquals(50, afterExit - start);
    assertEquals(50, afterStart - afterExit);
  }

  @Test
  void aThreadEndingWhileBeingRead_isSkipped() {
    long start = ProcessStats.allocated(new long[] {7}, new long[] {1_000});

    assertEquals(5, ProcessStats.allocated(new long[] {7, 8}, new long[] {1_005, -1}) - start);
  }
}
