package dev.aerun.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class TargetsTest {
  private static final String ALLOCATION =
      "Allocation per request at a fixed rate (1 KiB in, 32 KiB out): HttpConnector within 1 KiB"
          + " of bare Jetty";

  private static Results.CpuRow cpu(String peer, int round, double allocated) {
    return new Results.CpuRow(
        peer, round, 200, 200, 300, 0, 200, 190, 0, 190, allocated, 0, 0, null, 0);
  }

  private static Results.TargetRow allocation(double... httpThenBare) {
    Results r = new Results();
    for (int i = 0; i < httpThenBare.length / 2; i++) {
      r.cpu.add(cpu("http", i + 1, httpThenBare[2 * i]));
      r.cpu.add(cpu("bare", i + 1, httpThenBare[2 * i + 1]));
    }
    return Targets.evaluate(r).stream()
        .filter(t -> t.target().equals(ALLOCATION))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void allocationAtAFixedRate_comparesTheMediansAgainst1KiB() {
    Results.TargetRow met = allocation(5000, 4500, 5100, 4200, 4900, 4300);
    assertEquals("met", met.verdict(), met.toString());
    assertTrue(met.figure().startsWith("+700 B"), met.figure());

    assertEquals("missed", allocation(6000, 4500, 6100, 4600, 5900, 4400).verdict());
  }

  @Test
  void allocationAtAFixedRate_withoutBothPeersIsNotMeasured() {
    Results r = new Results();
    r.cpu.addAll(List.of(cpu("http", 1, 5000)));
    assertEquals(
        "not measured",
        Targets.evaluate(r).stream()
            .filter(t -> t.target().equals(ALLOCATION))
            .findFirst()
            .orElseThrow()
            .verdict());
  }
}
