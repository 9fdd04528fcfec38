package dev.aerun.bench.reliability;

import dev.aerun.bench.LoadGenerator;
import dev.aerun.bench.LoadGenerator.Outcome;
import dev.aerun.bench.ServerProcess;
import dev.aerun.bench.reliability.ReliabilityResults.SigtermRow;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * SIGTERM under load: GET /hello at a fixed rate, SIGTERM half-way, the schedule going on past it.
 * Each request is put in one of three groups by when it went out on a connection (those never sent,
 * for want of a connection, count as refused after SIGTERM): before SIGTERM and answered before it,
 * on the wire when SIGTERM came (in flight: each must complete), or after it (each must get an
 * answer or a clean refusal).
 */
final class Sigterm {
  private static final Duration LOAD = Duration.ofSeconds(10);

  private Sigterm() {}

  static SigtermRow run(ServerProcess server, double rate) throws Exception {
    int port = server.awaitPort();
    Outcomes before = new Outcomes();
    Outcomes inFlight = new Outcomes();
    Outcomes after = new Outcomes();
    AtomicLong sigterm = new AtomicLong(Long.MAX_VALUE);
    try (LoadGenerator client = new LoadGenerator()) {
      client.openLoop(port, Overload.HELLO, rate, Duration.ofSeconds(2));
      CompletableFuture<LoadGenerator.RateRun> load = new CompletableFuture<>();
      Thread thread =
          new Thread(
              () -> {
                try {
                  load.complete(
                      client.openLoop(
                          port,
                          Overload.HELLO,
                          rate,
                          LOAD,
                          LoadGenerator.OPEN_LOOP_CONNECTIONS,
                          outcome -> classify(outcome, sigterm.get(), before, inFlight, after)));
                } catch (Throwable t) {
                  load.completeExceptionally(t);
                }
              },
              "reliability-sigterm");
      thread.setDaemon(true);
      thread.start();
      TimeUnit.NANOSECONDS.sleep(LOAD.toNanos() / 2);
      long signalled = System.nanoTime();
      sigterm.set(signalled);
      server.terminate();
      int exit = server.awaitExit(60);
      double exitSeconds = (System.nanoTime() - signalled) / 1e9;
      LoadGenerator.RateRun run = load.get(2, TimeUnit.MINUTES);
      // Requests never sent had no connection: the server refused new ones once it stopped.
      after.add(Outcomes.REFUSED, run.sent() - before.total() - inFlight.total() - after.total());
      return new SigtermRow(
          server.peer().id,
          rate,
          run.sent(),
          before.snapshot(),
          inFlight.snapshot(),
          after.snapshot(),
          exit,
          exitSeconds,
          server.log().getFileName().toString());
    }
  }

  private static void classify(
      Outcome outcome, long sigterm, Outcomes before, Outcomes inFlight, Outcomes after) {
    if (outcome.sentNanos() >= sigterm) {
      after.add(outcome);
    } else if (outcome.doneNanos() < sigterm) {
      before.add(outcome);
    } else {
      inFlight.add(outcome);
    }
  }
}
