package dev.aerun.bench.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.aerun.bench.LoadGenerator.Outcome;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class OutcomesTest {
  private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

  @Test
  void a503sLatencyCountsFromItsSendNotFromTheGeneratorsBacklog() {
    Outcomes outcomes = new Outcomes();
    // Meant for t=0, waited 40 s in the generator for a free connection, refused 20 ms after it
    // went out: the server's refusal took 20 ms.
    outcomes.add(new Outcome(0, 40_000 * MS, 40_020 * MS, 503));
    assertEquals(20, outcomes.rejectedLatency().getValueAtPercentile(99) / 1000.0, 0.1);
    assertEquals(1, outcomes.count("503"));
  }

  @Test
  void aClosedConnectionIsCountedAsSuch() {
    Outcomes outcomes = new Outcomes();
    outcomes.add(new Outcome(0, MS, 2 * MS, -1));
    outcomes.add(new Outcome(0, MS, 2 * MS, 500));
    assertEquals(1, outcomes.count(Outcomes.CLOSED));
    assertEquals(1, outcomes.serverErrors());
    assertEquals(0, outcomes.rejectedLatency().getTotalCount());
  }
}
