package dev.aerun.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** A server's counters, as the bench app's {@code GET /stats} reports them (see ProcessStats). */
record ServerStats(
    long threads,
    long allocatedBytes,
    long processCpuNanos,
    long heapUsed,
    long gcFreedBytes,
    long heapAfterGc,
    long jitMillis,
    long gcPauseMillis) {
  private static final ObjectMapper JSON = new ObjectMapper();

  static ServerStats fetch(LoadGenerator client, int port) throws Exception {
    JsonNode node = JSON.readTree(client.getString(port, "/stats"));
    return new ServerStats(
        node.path("threads").asLong(),
        node.path("allocatedBytes").asLong(),
        node.path("processCpuNanos").asLong(),
        node.path("heapUsed").asLong(),
        node.path("gcFreedBytes").asLong(),
        node.path("heapAfterGc").asLong(),
        node.path("jitMillis").asLong(),
        node.path("gcPauseMillis").asLong());
  }
}
