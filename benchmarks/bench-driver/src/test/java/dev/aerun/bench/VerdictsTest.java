package dev.aerun.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.bench.Stats.Spread;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Verdicts on repeated measurements: met, missed, or within noise. */
class VerdictsTest {
  private static Spread of(double... values) {
    return Stats.spread(Arrays.stream(values).boxed().toList());
  }

  @Test
  void spread_medianMinMax_nanLeftOut() {
    Spread s = of(30, 10, 20, Double.NaN);
    assertEquals(20, s.median());
    assertEquals(10, s.min());
    assertEquals(30, s.max());
    assertEquals(List.of(30.0, 10.0, 20.0), s.values());
    assertEquals(15, of(10, 20).median());
    assertFalse(of(Double.NaN).known());
    assertEquals("20 (10–30)", s.format("%.0f"));
  }

  @Test
  void atMost_metOnlyAcrossTheWholeSpread() {
    // CPU: HttpConnector ≤ 1.05 × bare.
    assertEquals(Targets.MET, Targets.atMost(of(18, 19, 20), of(20, 21, 22), 1.05));
    assertEquals(Targets.MISSED, Targets.atMost(of(30, 31, 32), of(20, 21, 22), 1.05));
    // The medians say missed (1.14×), but the spreads overlap across the bound.
    assertEquals(Targets.WITHIN_NOISE, Targets.atMost(of(19, 24, 26), of(20, 21, 25), 1.05));
    // The medians say met, but one round of HttpConnector is above every bound of bare's.
    assertEquals(Targets.WITHIN_NOISE, Targets.atMost(of(18, 19, 40), of(20, 21, 22), 1.05));
    assertEquals(Targets.NOT_MEASURED, Targets.atMost(of(), of(20), 1.05));
  }

  @Test
  void atLeast_forThroughput() {
    assertEquals(Targets.MET, Targets.atLeast(of(100, 101, 102), of(99, 100, 100), 0.95));
    assertEquals(Targets.MISSED, Targets.atLeast(of(60, 61, 62), of(99, 100, 100), 0.95));
    assertEquals(Targets.WITHIN_NOISE, Targets.atLeast(of(80, 95, 110), of(90, 100, 105), 0.95));
  }

  @Test
  void beatingBareJettyBeyondTheNoise_isAMeasurementProblem() {
    // Capacity (higher is better): every legacy round above every bare round.
    assertTrue(Targets.beatsBeyondNoise(of(5400, 5500), of(2900, 3000), false));
    assertFalse(Targets.beatsBeyondNoise(of(2950, 3100), of(2900, 3000), false));
    // p99 (lower is better).
    assertTrue(Targets.beatsBeyondNoise(of(1.6, 1.7), of(5.3, 6.0), true));
    assertFalse(Targets.beatsBeyondNoise(of(1.6, 5.5), of(5.3, 6.0), true));
    assertTrue(Targets.overlap(of(1, 3), of(2, 4)));
    assertFalse(Targets.overlap(of(1, 2), of(3, 4)));
  }

  @Test
  void lag_aPhaseIsMeasurableWhenTheGeneratorsLagIsATenthOfItsP99OrLess() {
    assertTrue(Targets.measurable(100, 1000));
    assertFalse(Targets.measurable(101, 1000));
    assertFalse(Targets.mostlyUnmeasurable(1, 3));
    assertTrue(Targets.mostlyUnmeasurable(2, 5));
    assertFalse(Targets.mostlyUnmeasurable(0, 0));
  }

  @Test
  void lag_fromTheHistogramsOfARun() {
    org.HdrHistogram.Histogram latency = new org.HdrHistogram.Histogram(60_000_000, 3);
    org.HdrHistogram.Histogram lag = new org.HdrHistogram.Histogram(60_000_000, 3);
    for (int i = 0; i < 100; i++) {
      latency.recordValue(i < 98 ? 500 : 2_000); // p99: 2 ms
      lag.recordValue(i < 98 ? 20 : 150); // p99: 150 µs
    }
    LoadGenerator.RateRun run =
        new LoadGenerator.RateRun(latency, lag, 100, 100, 100, 0, 100, 150, java.util.Map.of(), 0);
    assertEquals(2.0, run.p99Millis(), 0.01);
    assertEquals(0.15, run.lagP99Millis(), 0.001);
    assertTrue(run.measurable());

    lag.recordValue(400);
    lag.recordValue(400);
    assertFalse(run.measurable(), "p99 lag 0.4 ms > a tenth of 2 ms");
  }
}
