package dev.aerun.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code --h2c-peak}: peak throughput and CPU per request of small GETs ({@code GET /hello}, EE10
 * bench app) over HTTP/2 cleartext, bare Jetty (with h2c) against HttpConnector mode, and over
 * HTTP/1.1 on both for comparison. The built-in generator speaks HTTP/1.1 only, so the load comes
 * from {@code h2load} (nghttp2: h2c with prior knowledge, one stream per connection) and {@code
 * wrk}, each with the same connections and duration, the peers and protocols interleaved round by
 * round. Each generator's own CPU per request is measured beside the server's. Never part of {@code
 * mvn verify}.
 */
final class H2cPeak {
  private static final Pattern H2LOAD_DONE =
      Pattern.compile("requests: \\d+ total, \\d+ started, (\\d+) done, (\\d+) succeeded");
  private static final Pattern H2LOAD_TIME = Pattern.compile("finished in ([0-9.]+)(ms|s),");
  private static final Pattern WRK_RATE = Pattern.compile("Requests/sec:\\s+([0-9.]+)");
  private static final Pattern WRK_REQUESTS = Pattern.compile("(\\d+) requests in");

  private H2cPeak() {}

  /** One measured run: a peer, a protocol, its rate and the CPU per request of both ends. */
  record Sample(
      String peer,
      String protocol,
      int round,
      double rate,
      double generatorCpuMicrosPerRequest,
      double serverCpuMicrosPerRequest) {}

  /** What {@code h2c-peak.json} holds. */
  record Outcome(
      int connections,
      double seconds,
      double loadAverageBefore,
      double loadAverageAfter,
      Map<String, Stats.Spread> rate,
      Map<String, Stats.Spread> serverCpuMicrosPerRequest,
      Map<String, Stats.Spread> generatorCpuMicrosPerRequest,
      List<Sample> samples) {}

  static Outcome run(BenchOptions options, PrintStream console) throws Exception {
    String h2load = Calibration.findOnPath("h2load");
    String wrk = Calibration.findOnPath("wrk");
    if (h2load == null || wrk == null) {
      throw new IllegalStateException(
          "--h2c-peak needs h2load (Debian: nghttp2-client) and wrk on the PATH");
    }
    int connections = LoadGenerator.CLOSED_LOOP_CONNECTIONS;
    int rounds = options.profile().rounds();
    Duration time = options.profile().peakTime();
    Path out = Files.createDirectories(options.out());
    Path logs = Files.createDirectories(out.resolve("logs"));
    double loadBefore = Bench.loadAverage();
    List<Peer> peers = List.of(Peer.BARE, Peer.HTTP);
    Progress progress = new Progress(console, peers.size() * (2 + rounds * 2));
    ServerProcess.Layout layout = ServerProcess.Layout.of(options.repo());
    layout.check(List.of("ee10"));
    List<Sample> samples = new ArrayList<>();
    LoadGenerator.Load hello = new LoadGenerator.Load("GET", "/hello", null);
    try (LoadGenerator client = new LoadGenerator()) {
      List<ServerProcess> servers = new ArrayList<>();
      try {
        for (Peer peer : peers) {
          progress.begin(peer.id + " ee10: start");
          ServerProcess server =
              ServerProcess.start(
                  peer,
                  "ee10",
                  layout,
                  options.java(),
                  options.jvmFlags(),
                  logs,
                  "h2c-peak-" + peer.id);
          servers.add(server);
          server.awaitFirstOk("/hello");
          int port = server.awaitPort();
          progress.end("port " + port);
          progress.begin(peer.id + ": warm-up");
          double warm =
              TimingScenarios.warmUp(
                  client, server.pid(), port, hello, options.profile().warmupTime());
          // HTTP/2's code paths warm up too.
          generate(h2load, wrk, "h2c", server, port, connections, time, 0, peer);
          progress.end(String.format(Locale.ROOT, "%.0f/s", warm));
        }
        for (int round = 1; round <= rounds; round++) {
          for (int i = 0; i < peers.size(); i++) {
            ServerProcess server = servers.get(i);
            int port = server.awaitPort();
            for (String protocol : List.of("h2c", "http/1.1")) {
              progress.begin("round " + round + ": " + peers.get(i).id + " " + protocol);
              Sample s =
                  generate(
                      h2load, wrk, protocol, server, port, connections, time, round, peers.get(i));
              samples.add(s);
              progress.end(
                  String.format(
                      Locale.ROOT,
                      "%.0f/s, generator %.1f µs/request, server %.1f µs/request",
                      s.rate(),
                      s.generatorCpuMicrosPerRequest(),
                      s.serverCpuMicrosPerRequest()));
            }
          }
        }
      } finally {
        for (ServerProcess server : servers) {
          server.close();
        }
      }
    }
    Map<String, Stats.Spread> rate = new LinkedHashMap<>();
    Map<String, Stats.Spread> serverCpu = new LinkedHashMap<>();
    Map<String, Stats.Spread> generatorCpu = new LinkedHashMap<>();
    for (Peer peer : peers) {
      for (String protocol : List.of("h2c", "http/1.1")) {
        String key = peer.id + " " + protocol;
        List<Sample> of =
            samples.stream()
                .filter(s -> s.peer().equals(peer.id) && s.protocol().equals(protocol))
                .toList();
        rate.put(key, Stats.spread(of.stream().map(Sample::rate).toList()));
        serverCpu.put(
            key, Stats.spread(of.stream().map(Sample::serverCpuMicrosPerRequest).toList()));
        generatorCpu.put(
            key, Stats.spread(of.stream().map(Sample::generatorCpuMicrosPerRequest).toList()));
      }
    }
    Outcome outcome =
        new Outcome(
            connections,
            time.toMillis() / 1000.0,
            loadBefore,
            Bench.loadAverage(),
            rate,
            serverCpu,
            generatorCpu,
            samples);
    new ObjectMapper()
        .enable(SerializationFeature.INDENT_OUTPUT)
        .writeValue(out.resolve("h2c-peak.json").toFile(), outcome);
    String md = markdown(outcome);
    Files.writeString(out.resolve("h2c-peak.md"), md);
    console.print(md);
    return outcome;
  }

  /** One closed-loop run of {@code h2load} (h2c) or {@code wrk} (HTTP/1.1). */
  private static Sample generate(
      String h2load,
      String wrk,
      String protocol,
      ServerProcess server,
      int port,
      int connections,
      Duration time,
      int round,
      Peer peer)
      throws IOException, InterruptedException {
    String url = "http://127.0.0.1:" + port + "/hello";
    String seconds = String.valueOf(Math.max(1, time.toSeconds()));
    List<String> command =
        protocol.equals("h2c")
            ? List.of(h2load, "-t1", "-c" + connections, "-m1", "-D" + seconds, url)
            : List.of(wrk, "-t1", "-c" + connections, "-d" + seconds + "s", url);
    long childrenBefore = Calibration.childrenCpuNanos();
    CpuClock.ProcessCpu before = CpuClock.of(server.pid());
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String text = new String(process.getInputStream().readAllBytes());
    if (!process.waitFor(time.toSeconds() + 60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new IllegalStateException(command.get(0) + " did not end");
    }
    CpuClock.ProcessCpu serverCpu = CpuClock.of(server.pid()).minus(before);
    long generatorCpu = Calibration.childrenCpuNanos() - childrenBefore;
    long requests;
    double rate;
    if (protocol.equals("h2c")) {
      Matcher done = H2LOAD_DONE.matcher(text);
      Matcher finished = H2LOAD_TIME.matcher(text);
      if (process.exitValue() != 0 || !done.find() || !finished.find()) {
        throw new IllegalStateException("h2load failed:\n" + text);
      }
      if (!done.group(1).equals(done.group(2))) {
        throw new IllegalStateException("h2load: not every request succeeded:\n" + text);
      }
      requests = Long.parseLong(done.group(2));
      double elapsed =
          Double.parseDouble(finished.group(1)) / (finished.group(2).equals("ms") ? 1000 : 1);
      rate = requests / elapsed;
    } else {
      Matcher r = WRK_RATE.matcher(text);
      Matcher n = WRK_REQUESTS.matcher(text);
      if (process.exitValue() != 0 || !r.find() || !n.find()) {
        throw new IllegalStateException("wrk failed:\n" + text);
      }
      requests = Long.parseLong(n.group(1));
      rate = Double.parseDouble(r.group(1));
    }
    long n = Math.max(1, requests);
    return new Sample(
        peer.id,
        protocol,
        round,
        rate,
        generatorCpu < 0 ? Double.NaN : generatorCpu / 1000.0 / n,
        serverCpu.known() ? serverCpu.totalNanos() / 1000.0 / n : Double.NaN);
  }

  static String markdown(Outcome o) {
    StringBuilder md = new StringBuilder("# HTTP/2 cleartext: peak throughput of small GETs\n\n");
    md.append(
        String.format(
            Locale.ROOT,
            "EE10 bench app, `GET /hello`, closed loop, %d connections (h2load: one stream each,"
                + " h2c with prior knowledge; wrk: HTTP/1.1 keep-alive), %.0f s per run, peers and"
                + " protocols interleaved; load average %.2f before, %.2f after.%n%n",
            o.connections(),
            o.seconds(),
            o.loadAverageBefore(),
            o.loadAverageAfter()));
    md.append(
        "| Peer, protocol | Peak (req/s), median (min–max) | Server CPU per request (µs)"
            + " | Generator CPU per request (µs) |\n|---|---:|---:|---:|\n");
    for (String key : o.rate().keySet()) {
      md.append(
          String.format(
              Locale.ROOT,
              "| %s | %s | %s | %s |%n",
              key,
              o.rate().get(key).format("%.0f"),
              o.serverCpuMicrosPerRequest().get(key).format("%.1f"),
              o.generatorCpuMicrosPerRequest().get(key).format("%.1f")));
    }
    return md.toString();
  }
}
