package dev.aerun.bench.reliability;

import dev.aerun.bench.LoadGenerator;
import dev.aerun.bench.LoadGenerator.Outcome;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * Counts how the requests of a run ended: by status, or the connection closed before an answer.
 * Also keeps the latency of 503s, since an overloaded server must refuse fast: from the moment each
 * went out on a connection, not from its intended send time. Under overload every connection of the
 * generator is busy and the next requests wait in the generator for one to free up; that wait is
 * the client's queue, which a refusal cannot shorten, and counting it would measure the generator.
 */
final class Outcomes {
  /** Requests never sent: no connection could be made (nobody listening any more). */
  static final String REFUSED = "not sent: connection refused";

  /** A request without a response: the connection closed (or reset) before a complete answer. */
  static final String CLOSED = "connection closed";

  /** Requests still unanswered when the run's wait for answers ended. */
  static final String TIMEOUT = "timeout";

  private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();
  private final ConcurrentHistogram rejected =
      new ConcurrentHistogram(LoadGenerator.HIGHEST_MICROS, 3);

  void add(Outcome outcome) {
    counts.computeIfAbsent(kind(outcome), k -> new LongAdder()).increment();
    if (outcome.status() == 503) {
      rejected.recordValue(
          Math.min(
              LoadGenerator.HIGHEST_MICROS, (outcome.doneNanos() - outcome.sentNanos()) / 1000));
    }
  }

  /** The status as text ({@code "200"}), or {@link #CLOSED} when the connection broke first. */
  static String kind(Outcome outcome) {
    return outcome.status() > 0 ? Integer.toString(outcome.status()) : CLOSED;
  }

  /** Adds {@code count} requests of {@code kind} that have no {@link Outcome} (never sent). */
  void add(String kind, long count) {
    if (count > 0) {
      counts.computeIfAbsent(kind, k -> new LongAdder()).add(count);
    }
  }

  long count(String kind) {
    LongAdder adder = counts.get(kind);
    return adder == null ? 0 : adder.sum();
  }

  long total() {
    return counts.values().stream().mapToLong(LongAdder::sum).sum();
  }

  /** Server errors other than 503 (the refusal the runtime means to give). */
  long serverErrors() {
    return counts.entrySet().stream()
        .filter(e -> e.getKey().startsWith("5") && !e.getKey().equals("503"))
        .mapToLong(e -> e.getValue().sum())
        .sum();
  }

  /** Every kind with its count, in order. */
  Map<String, Long> snapshot() {
    Map<String, Long> copy = new TreeMap<>();
    counts.forEach((k, v) -> copy.put(k, v.sum()));
    return copy;
  }

  Histogram rejectedLatency() {
    return rejected.copy();
  }
}
