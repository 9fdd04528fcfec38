package dev.aerun.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class StealTest {
  private static final String SELF = "42 (java) S 1 1 1 0 -1 0 0 0 0 0 1 2 3 4 20 0";

  @Test
  void readsStealFromTheCpuLine() {
    Steal.Sample a =
        Steal.Sample.parse("cpu  3783748 40567 274171 538008 2115 0 17373 113907 0 0", SELF);
    Steal.Sample b =
        Steal.Sample.parse("cpu  3784042 40567 274355 541965 2115 0 17397 114085 0 0", SELF);
    assertEquals(113907, a.stealTicks());
    // 178 ticks of steal out of 4,637 ticks in all.
    assertEquals(100.0 * 178 / 4637, a.percentUntil(b), 1e-9);
  }

  @Test
  void noStealFigureIsUnknownNotZero() {
    Steal.Sample old = Steal.Sample.parse("cpu  1 2 3 4 5 6 7", SELF);
    assertFalse(old.known());
    assertTrue(Double.isNaN(old.percentUntil(old)));
    // Unknown steal never makes a phase run again.
    Steal steal = new Steal(3, 5, Duration.ZERO, () -> Steal.Sample.UNKNOWN, millis -> {});
    AtomicInteger runs = new AtomicInteger();
    assertDoesNotRerun(steal, runs);
  }

  private static void assertDoesNotRerun(Steal steal, AtomicInteger runs) {
    try {
      Steal.Measured<Integer> m = steal.measure(runs::incrementAndGet);
      assertEquals(1, runs.get());
      assertEquals(1, m.attempts());
      assertFalse(m.disturbed());
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void aDisturbedPhaseRunsAgainUntilOneIsNot() throws Exception {
    // Per run: steal 10 %, then 20 %, then 1 % (a sample before and after each run).
    Steal steal = new Steal(3, 5, Duration.ZERO, clock(0, 0, 10, 10, 30, 30, 31), millis -> {});
    AtomicInteger runs = new AtomicInteger();
    Steal.Measured<Integer> m = steal.measure(runs::incrementAndGet);
    assertEquals(3, m.attempts());
    assertEquals(3, m.value(), "the undisturbed run is the one kept");
    assertEquals(1.0, m.stealPercent(), 1e-9);
    assertFalse(m.disturbed());
    Results.StealSummary summary = steal.summary();
    assertEquals(1, summary.phases());
    assertEquals(1, summary.rerun());
    assertEquals(0, summary.disturbed());
  }

  @Test
  void afterItsAttemptsThePhaseKeepsTheLeastDisturbedRunAndSaysSo() throws Exception {
    // Per run: steal 10 %, 5 %, 20 %.
    Steal steal = new Steal(3, 3, Duration.ZERO, clock(0, 0, 10, 10, 15, 15, 35), millis -> {});
    AtomicInteger runs = new AtomicInteger();
    Steal.Measured<Integer> m = steal.measure(runs::incrementAndGet);
    assertEquals(3, runs.get());
    assertEquals(2, m.value());
    assertEquals(5.0, m.stealPercent(), 1e-9);
    assertTrue(m.disturbed());
    assertEquals(1, steal.summary().disturbed());
  }

  @Test
  void beforeARunAgain_itWaitsForTheBurstToPass_withinTheRunsBudget() throws Exception {
    // Run 1: 10 % steal; then calm windows of 20 %, 15 %, 1 %; run 2: 2 %.
    List<Long> slept = new ArrayList<>();
    Steal steal =
        new Steal(
            3,
            3,
            Duration.ofSeconds(10),
            clock(0, 0, 10, 10, 30, 30, 45, 45, 46, 46, 48),
            slept::add);
    AtomicInteger runs = new AtomicInteger();
    Steal.Measured<Integer> m = steal.measure(runs::incrementAndGet);
    assertEquals(2, m.value());
    assertFalse(m.disturbed());
    assertEquals(List.of(1000L, 1000L, 1000L), slept, "three windows until a calm one");
    assertEquals(3.0, steal.summary().calmWaitSeconds(), 1e-9);

    // The budget: 10 s in all, whatever the host does.
    long[] stormy = new long[2 + 2 * 40];
    for (int i = 1; i < stormy.length; i++) {
      stormy[i] = stormy[i - 1] + (i % 2 == 0 ? 50 : 0);
    }
    List<Long> sleptInStorm = new ArrayList<>();
    Steal storm = new Steal(3, 5, Duration.ofSeconds(10), clock(stormy), sleptInStorm::add);
    Steal.Measured<Integer> kept = storm.measure(() -> 1);
    assertTrue(kept.disturbed());
    assertEquals(10, sleptInStorm.size());
  }

  /**
   * A clock whose samples carry {@code steal} ticks each, 100 ticks apart: the first is taken when
   * the rule is made, then one before and one after each run.
   */
  private static java.util.function.Supplier<Steal.Sample> clock(long... steal) {
    ArrayDeque<Steal.Sample> samples = new ArrayDeque<>();
    long total = 0;
    for (long s : steal) {
      samples.add(new Steal.Sample(s, total, 0, 0));
      total += 100;
    }
    return () -> samples.isEmpty() ? new Steal.Sample(0, Long.MAX_VALUE, 0, 0) : samples.poll();
  }
}
