package dev.aerun.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.bench.Calibration.Sample;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The calibration's verdict from its samples; the run itself is never part of the build. */
class CalibrationTest {
  private static List<Sample> samples(double builtIn, double wrk) {
    return List.of(
        new Sample("built-in", 1, builtIn, 5, 20),
        new Sample("wrk", 1, wrk, 4, 20),
        new Sample("built-in", 2, builtIn * 1.02, 5, 20),
        new Sample("wrk", 2, wrk * 0.98, 4, 20),
        new Sample("built-in", 3, builtIn * 0.99, 5, 20),
        new Sample("wrk", 3, wrk, 4, 20));
  }

  @Test
  void withinFifteenPercentOfWrk_isCalibrated() {
    Calibration.Outcome o =
        Calibration.outcome(
            samples(43_000, 48_000), "/usr/bin/wrk", 16, Duration.ofSeconds(5), 1, 1);
    assertTrue(o.verdict().startsWith("calibrated"), o.verdict());
    assertEquals(43_000, o.builtInMedianRate());
    assertEquals(48_000, o.wrkMedianRate());
    assertTrue(
        Calibration.markdown(o)
            .contains("| Peak (req/s), median (min–max) | 43000 (42570–43860) |"));
  }

  @Test
  void moreThanFifteenPercentBelow_isNot() {
    Calibration.Outcome o =
        Calibration.outcome(
            samples(40_000, 48_000), "/usr/bin/wrk", 16, Duration.ofSeconds(5), 1, 1);
    assertTrue(o.verdict().startsWith("NOT calibrated"), o.verdict());
  }

  @Test
  void withoutWrk_notCalibrated() {
    Calibration.Outcome o =
        Calibration.outcome(
            samples(40_000, 0).stream().filter(s -> s.generator().equals("built-in")).toList(),
            null,
            16,
            Duration.ofSeconds(5),
            1,
            1);
    assertTrue(o.verdict().startsWith("not calibrated: wrk is not on the PATH"), o.verdict());
    assertTrue(Calibration.markdown(o).contains("**not calibrated"));
  }

  @Test
  void jitCpu_comesFromTheCompilerThreads() {
    assertTrue(CpuClock.isCompiler("C2 CompilerThre"));
    assertTrue(CpuClock.isCompiler("C1 CompilerThre"));
    assertTrue(!CpuClock.isCompiler("qtp12345-17"));
    // utime 1793 and stime 5705 ticks, after a name with spaces and parentheses.
    String stat = "42 (C2 (Compiler) x) S 1 1 1 0 -1 4194560 100 0 0 0 1793 5705 0 0 20 0 1 0";
    assertEquals(1793 + 5705, CpuClock.statTicks(stat));
  }
}
