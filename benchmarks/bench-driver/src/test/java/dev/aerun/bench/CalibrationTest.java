package dev.aerun.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.bench.Results.CalibrationRow;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The calibration's verdict from its rounds; the run itself is never part of the build. */
class CalibrationTest {
  private static List<CalibrationRow> rounds(double builtIn, double wrk) {
    return List.of(
        new CalibrationRow("bare", 1, "built-in", builtIn, 5, 20),
        new CalibrationRow("bare", 1, "wrk", wrk, 4, 20),
        new CalibrationRow("bare", 2, "built-in", builtIn * 1.02, 5, 20),
        new CalibrationRow("bare", 2, "wrk", wrk * 0.98, 4, 20),
        new CalibrationRow("bare", 3, "built-in", builtIn * 0.99, 5, 20),
        new CalibrationRow("bare", 3, "wrk", wrk, 4, 20));
  }

  @Test
  void withinFifteenPercentOfWrk_isCalibrated() {
    String verdict = TimingScenarios.verdict(rounds(43_000, 48_000), true);
    assertEquals(
        "calibrated: the built-in peak is within 15 % of wrk's (built-in / wrk median peak 0.90)",
        verdict);
    assertEquals(43_000, TimingScenarios.rate(rounds(43_000, 48_000), "built-in").median());
  }

  @Test
  void moreThanFifteenPercentBelow_isNot() {
    assertTrue(
        TimingScenarios.verdict(rounds(40_000, 48_000), true).startsWith("NOT calibrated"),
        TimingScenarios.verdict(rounds(40_000, 48_000), true));
  }

  @Test
  void withoutWrk_notCalibrated() {
    List<CalibrationRow> builtInOnly =
        rounds(40_000, 0).stream().filter(r -> r.generator().equals("built-in")).toList();
    assertTrue(
        TimingScenarios.verdict(builtInOnly, false)
            .startsWith("not calibrated: wrk is not on the PATH"));
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
