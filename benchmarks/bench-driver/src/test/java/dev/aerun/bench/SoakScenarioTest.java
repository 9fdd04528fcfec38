package dev.aerun.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.aerun.bench.Results.SoakRow;
import dev.aerun.bench.Results.SoakSample;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongUnaryOperator;
import org.junit.jupiter.api.Test;

class SoakScenarioTest {
  private static final long MIB = 1024 * 1024;

  /** 31 samples a minute apart. */
  private static List<SoakSample> samples(
      LongUnaryOperator heap, LongUnaryOperator threads, LongUnaryOperator fds) {
    List<SoakSample> samples = new ArrayList<>();
    for (long i = 0; i <= 30; i++) {
      samples.add(
          new SoakSample(
              60 * i, heap.applyAsLong(i), (int) threads.applyAsLong(i), (int) fds.applyAsLong(i)));
    }
    return samples;
  }

  private static SoakRow soak(String peer, long failed, List<SoakSample> samples) {
    return new SoakRow(
        peer, 200, 30, 360_000, failed, java.util.Map.of(), 1, 2, 3, samples, 0, 0, 0, false);
  }

  private static Results.TargetRow target(SoakRow... rows) {
    Results r = new Results();
    r.soak.addAll(List.of(rows));
    return Targets.evaluate(r).get(11);
  }

  @Test
  void flatFiguresMeet_growingOnesMiss() {
    // Noise around a flat line: met.
    SoakRow flat =
        soak("http", 0, samples(i -> 20 * MIB + (i % 3) * MIB, i -> 60 + i % 2, i -> 100 + i % 3));
    assertEquals("met", target(flat).verdict(), target(flat).toString());
    assertEquals("http: flat", target(flat).figure());

    // 1 MiB a minute, a thread every 3 minutes, a descriptor a minute: each missed.
    SoakRow leaky =
        soak("legacy", 0, samples(i -> 20 * MIB + i * MIB, i -> 60 + i / 3, i -> 100 + i));
    Results.TargetRow both = target(flat, leaky);
    assertEquals("missed", both.verdict());
    assertEquals("http: flat; legacy: heap +21.0 MiB, threads +7, descriptors +21", both.figure());
    assertEquals(
        1.0 * MIB, SoakScenario.slopePerMinute(leaky.samples(), SoakSample::heapAfterGcBytes), 1.0);
  }

  @Test
  void aRequestNotAnswered200_misses() {
    SoakRow failed = soak("http", 3, samples(i -> 20 * MIB, i -> 60, i -> 100));
    assertEquals("missed", target(failed).verdict());
    assertEquals("http: 3 not 200", target(failed).figure());
  }

  @Test
  void withoutASoak_notMeasured() {
    assertEquals("not measured", target().verdict());
  }
}
