package dev.aerun.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Other processes' share of the machine during a run, and what the report says of it. */
class OtherLoadTest {
  private static final String SELF = "4242 (java (driver)) S 1 1 1 0 -1 0 0 0 0 0 %d %d %d %d 20 0";

  private static Steal.Sample sample(
      long user, long idle, long iowait, long steal, long ownUser, long children) {
    String cpu = "cpu  " + user + " 0 0 " + idle + " " + iowait + " 0 0 " + steal + " 0 0";
    return Steal.Sample.parse(cpu, String.format(SELF, ownUser, 0, children, 0));
  }

  @Test
  void othersAreTheMachinesBusyTimeLessOwnAndReapedChildren() {
    Steal.Sample before = sample(1_000, 5_000, 100, 50, 10, 0);
    // 1,000 ticks in all: 600 busy, of which 450 this driver (150) and its servers (300); 300 idle
    // or waiting for I/O, 100 stolen.
    Steal.Sample after = sample(1_600, 5_250, 150, 150, 160, 300);
    assertEquals(15.0, before.othersPercentUntil(after), 1e-9);
  }

  @Test
  void aRunOnAQuietMachine_isNotBusy_andOneBesideABuild_is() {
    assertTrue(Report.machineNote(meta(4.2, 5.1, 0.8)).startsWith("Other load: other processes"));
    assertTrue(Report.machineNote(meta(0.1, 0.2, 35.0)).startsWith("> **The machine was busy**"));
  }

  @Test
  void withoutTheShare_theLoadAverageBeforeDecides() {
    assertTrue(Report.machineNote(meta(0.3, 5.0, Double.NaN)).startsWith("Other load: load"));
    assertTrue(
        Report.machineNote(meta(1.8, 5.0, Double.NaN)).startsWith("> **The machine was busy**"));
  }

  @Test
  void notKnown_withoutProc() {
    assertTrue(Double.isNaN(Steal.Sample.UNKNOWN.othersPercentUntil(Steal.Sample.now())));
    assertEquals(
        Steal.Sample.UNKNOWN, Steal.Sample.parse("intr 1 2 3", String.format(SELF, 1, 1, 1, 1)));
  }

  private static Results.Meta meta(double loadBefore, double loadAfter, double others) {
    return new Results.Meta(
        "full",
        "2026-11-24T00:00:00Z",
        1.0,
        "java -jar bench-driver.jar",
        2,
        1L << 34,
        "Linux",
        "java",
        "17",
        "12.1.7",
        List.of(),
        "17",
        List.of("capacity"),
        List.of("ee10"),
        loadBefore,
        loadAfter,
        others);
  }
}
