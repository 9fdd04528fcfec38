package dev.aerun.bench;

/**
 * The scenarios of the built-in benchmarks (docs/BENCHMARKS.md); all but the soak run by default.
 */
enum Scenario {
  ECHO("echo"),
  CPU("cpu"),
  LATENCY("latency"),
  CAPACITY("capacity"),
  COLDSTART("coldstart"),
  SOAK("soak"),
  CALIBRATE("calibrate"),
  H2C_PEAK("h2c-peak");

  /** What runs unless {@code --scenarios} says otherwise: everything but the long soak. */
  static final java.util.List<Scenario> DEFAULT =
      java.util.List.of(ECHO, CPU, LATENCY, CAPACITY, COLDSTART);

  final String id;

  Scenario(String id) {
    this.id = id;
  }

  static Scenario byId(String id) {
    for (Scenario scenario : values()) {
      if (scenario.id.equals(id)) {
        return scenario;
      }
    }
    throw new IllegalArgumentException(
        "unknown scenario '"
            + id
            + "': expected echo, cpu, latency, capacity, coldstart, soak, calibrate or h2c-peak");
  }
}
