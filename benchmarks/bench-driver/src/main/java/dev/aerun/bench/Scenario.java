package dev.aerun.bench;

import java.util.List;
import java.util.Locale;

/**
 * The scenarios of the built-in benchmarks (docs/BENCHMARKS.md); all but the soak run by default.
 */
enum Scenario {
  ECHO,
  CPU,
  LATENCY,
  CAPACITY,
  COLDSTART,
  SOAK,
  CALIBRATE,
  H2C_PEAK;

  /** What runs unless {@code --scenarios} says otherwise: everything but the long soak. */
  static final List<Scenario> DEFAULT = List.of(ECHO, CPU, LATENCY, CAPACITY, COLDSTART);

  /** The name {@code --scenarios} takes: {@code echo}, {@code h2c-peak}. */
  final String id = name().toLowerCase(Locale.ROOT).replace('_', '-');

  static Scenario byId(String id) {
    for (Scenario scenario : values()) {
      if (scenario.id.equals(id)) {
        return scenario;
      }
    }
    throw new IllegalArgumentException(
        "unknown scenario '"
            + id
            + "': expected echo, cpu, latency, capacity, coldstart, soak,"
            + " calibrate or h2c-peak");
  }
}
