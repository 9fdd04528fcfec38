package dev.aerun.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.bench.Results.CapacityStep;
import java.util.ArrayList;
import java.util.List;
import java.util.function.DoublePredicate;
import org.junit.jupiter.api.Test;

/** The capacity search on a fake server whose limit is known. */
class CapacitySearchTest {
  private static final double[] FRACTIONS = {0.95, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1};

  /** A server that passes every rate for which {@code passes} holds. */
  private static CapacitySearch.Stepper server(DoublePredicate passes, List<Double> tried) {
    return rate -> {
      tried.add(rate);
      boolean ok = passes.test(rate);
      return new CapacityStep(rate, rate, ok ? 1 : 50, 0.01, 0, ok, 0, 1);
    };
  }

  @Test
  void searchesDownFromThePeak_thenBisects() throws Exception {
    List<Double> tried = new ArrayList<>();
    CapacitySearch.Found found =
        CapacitySearch.search(10_000, FRACTIONS, 2, server(rate -> rate <= 7_400, tried));

    // 9500, 9000, 8000 fail; 7000 passes; then 7500 fails and 7250 passes. Each rate twice.
    assertEquals(
        List.of(
            9500.0, 9500.0, 9000.0, 9000.0, 8000.0, 8000.0, 7000.0, 7000.0, 7500.0, 7500.0, 7250.0,
            7250.0),
        tried);
    assertEquals(7250, found.capacityRate());
    assertEquals(tried.size(), found.steps().size());
  }

  @Test
  void aRateIsRunUntilTwoRunsAgree() throws Exception {
    // Fails once, then passes: the third run decides.
    int[] calls = {0};
    List<CapacityStep> steps = new ArrayList<>();
    boolean passed =
        CapacitySearch.agreed(
            rate -> {
              boolean ok = calls[0]++ != 0;
              return new CapacityStep(rate, rate, 1, 0, 0, ok, 0, 1);
            },
            5000,
            steps);
    assertTrue(passed);
    assertEquals(3, steps.size());

    calls[0] = 0;
    steps.clear();
    // Passes once, then fails twice.
    assertFalse(
        CapacitySearch.agreed(
            rate -> new CapacityStep(rate, rate, 1, 0, 0, calls[0]++ == 0, 0, 1), 5000, steps));
    assertEquals(3, steps.size());
  }

  @Test
  void nothingPasses_capacityZero_andNoPeakNoSearch() throws Exception {
    List<Double> tried = new ArrayList<>();
    assertEquals(
        0, CapacitySearch.search(1000, FRACTIONS, 2, server(r -> false, tried)).capacityRate());
    assertEquals(FRACTIONS.length * 2, tried.size());

    tried.clear();
    assertEquals(
        0, CapacitySearch.search(0, FRACTIONS, 2, server(r -> true, tried)).capacityRate());
    assertTrue(tried.isEmpty());
  }

  @Test
  void passes_needsNoError_p99UnderTheBound_and95PercentOfTheRate() {
    assertTrue(CapacitySearch.passes(1000, 960, 9.9, 0, 10));
    assertFalse(CapacitySearch.passes(1000, 940, 1, 0, 10));
    assertFalse(CapacitySearch.passes(1000, 1000, 10.1, 0, 10));
    assertFalse(CapacitySearch.passes(1000, 1000, 1, 1, 10));
  }

  @Test
  void rates_areRounded() {
    assertEquals(9_990, CapacitySearch.round(9_999));
    assertEquals(12_300, CapacitySearch.round(12_345));
  }
}
