package dev.aerun.bench;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;

/** A server's counters, as the bench app's {@code GET /stats} reports them (see ProcessStats). */
record ServerStats(
    long threads,
    long allocatedBytes,
    long processCpuNanos,
    long heapUsed,
    long gcFreedBytes,
    long heapAfterGc,
    long gcPauseMillis) {
  private static final ObjectMapper JSON =
      new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  static ServerStats fetch(LoadGenerator client, int port) throws Exception {
    return JSON.readValue(client.getString(port, "/stats"), ServerStats.class);
  }
}
