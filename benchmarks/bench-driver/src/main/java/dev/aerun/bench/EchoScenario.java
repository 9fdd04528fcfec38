package dev.aerun.bench;

import dev.aerun.bench.LoadGenerator.Exchange;
import dev.aerun.bench.LoadGenerator.Load;
import dev.aerun.bench.Results.EchoRow;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The memory scenario: echo of a body, one request at a time; the bytes the whole server process
 * allocates per request, and the heap after a full GC run inside the servlet mid-request.
 */
final class EchoScenario {
  /**
   * The measured requests of a size are split into this many windows, each read on its own (fewer
   * with fewer requests): one-off allocations in a window (a pool thread starting, a buffer a pool
   * keeps) move one window's figure, and the windows' spread shows by how much.
   */
  static final int WINDOWS = 3;

  private final Profile profile;
  private final Map<Long, byte[]> bodies = new LinkedHashMap<>();

  EchoScenario(Profile profile) {
    this.profile = profile;
  }

  /** A body of {@code size} bytes, made once. */
  byte[] body(long size) {
    return bodies.computeIfAbsent(size, EchoScenario::pattern);
  }

  /**
   * Echo, one request at a time: allocation per request, and the heap after GC mid-request; {@code
   * round} numbers the peer's server JVMs.
   */
  String run(
      LoadGenerator client, Peer peer, String ee, int round, int port, long size, Results results)
      throws Exception {
    byte[] body = body(size);
    Load load = new Load("POST", "/echo", body);
    for (int i = 0; i < profile.echo().warmup(size); i++) {
      check(client.send(port, load), size);
    }
    int n = profile.echo().requests(size);
    Histogram latency = new Histogram(LoadGenerator.HIGHEST_MICROS, 3);
    // The first stats requests of a server allocate a megabyte of one-time set-up: warm them too,
    // so that the next two readings measure what one stats request costs from then on.
    for (int i = 0; i < 3; i++) {
      ServerStats.fetch(client, port);
    }
    ServerStats s0 = ServerStats.fetch(client, port);
    ServerStats s1 = ServerStats.fetch(client, port);
    double overhead = s1.allocatedBytes() - s0.allocatedBytes();
    int windows = Math.max(1, Math.min(WINDOWS, n));
    List<Double> perWindow = new ArrayList<>();
    ServerStats before = s1;
    for (int w = 0; w < windows; w++) {
      int requests = n * (w + 1) / windows - n * w / windows;
      for (int i = 0; i < requests; i++) {
        Exchange exchange = client.send(port, load);
        check(exchange, size);
        latency.recordValue(Math.min(LoadGenerator.HIGHEST_MICROS, exchange.nanos() / 1000));
      }
      ServerStats after = ServerStats.fetch(client, port);
      perWindow.add((after.allocatedBytes() - before.allocatedBytes() - overhead) / requests);
      before = after;
    }
    ServerStats s2 = before;
    double allocated = Stats.spread(perWindow).median();
    // Over all windows: each window's stats request adds a little, within these coarse figures.
    double gcAllocated =
        ((s2.gcFreedBytes() + s2.heapUsed()) - (s1.gcFreedBytes() + s1.heapUsed())) / (double) n;
    double cpuMicros = (s2.processCpuNanos() - s1.processCpuNanos()) / 1000.0 / n;

    List<Long> heap = new ArrayList<>();
    for (int i = 0; i < profile.echo().heapSamples(); i++) {
      check(client.send(port, new Load("POST", "/echo?heap", body)), size);
      heap.add(ServerStats.fetch(client, port).heapAfterGc());
    }
    long heapMedian = (long) Stats.median(heap.stream().map(Long::doubleValue).toList());
    // After the same warm-up and requests, so that whatever the server keeps between requests
    // (pooled buffers, caches) is in both figures and only the request's own part differs.
    long heapAtRest = heapAtRest(client, port);
    results.echo.add(
        new EchoRow(
            ee,
            peer.id,
            size,
            round,
            n,
            allocated,
            perWindow,
            gcAllocated,
            overhead,
            heapMedian,
            heapAtRest,
            heap,
            cpuMicros,
            latency.getValueAtPercentile(50) / 1000.0));
    return Report.fmt(
        "%s/request (GC check %s), heap %s",
        Report.bytes(allocated), Report.bytes(gcAllocated), Report.bytes(heapMedian));
  }

  /** The heap after a full GC at the end of an empty echo: the server's live data at rest. */
  static long heapAtRest(LoadGenerator client, int port) {
    try {
      Exchange exchange = client.send(port, new Load("POST", "/echo?heap", new byte[0]));
      return exchange.status() != 200 ? -1 : ServerStats.fetch(client, port).heapAfterGc();
    } catch (Exception e) {
      return -1;
    }
  }

  private static void check(Exchange exchange, long size) {
    if (exchange.status() != 200 || exchange.bytes() != size) {
      throw new IllegalStateException(
          "echo of " + size + " bytes answered " + exchange.status() + " with " + exchange.bytes());
    }
  }

  private static byte[] pattern(long size) {
    byte[] bytes = new byte[(int) size];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) ('A' + i % 26);
    }
    return bytes;
  }
}
