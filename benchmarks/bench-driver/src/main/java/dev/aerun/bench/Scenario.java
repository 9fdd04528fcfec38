package dev.aerun.bench;

/** The scenarios of DESIGN §6. */
enum Scenario {
  ECHO("echo"),
  CPU("cpu"),
  LATENCY("latency"),
  CAPACITY("capacity"),
  COLDSTART("coldstart");

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
        "unknown scenario '" + id + "': expected echo, cpu, latency, capacity or coldstart");
  }
}
