import dev.aerun.testing.RawHttp;
import dev.aerun.testing.RawResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where a server spends a request, thread by thread: context switches (voluntary and not) and CPU
 * time per request of each group of the server's threads (names with their numbers taken out, so
 * that a pool's threads add up), read from {@code /proc/PID/task/*} ({@code status}, {@code
 * schedstat}: nanoseconds) before and after each window. The CPU scenario's request ({@code POST
 * /bytes?size=32768}, 1 KiB in), one at a time, at a fixed rate (0: as fast as answered), spread
 * round-robin over N keep-alive connections, the servers interleaved window by window. Linux only.
 *
 * <pre>
 * java -cp aerun-testing/target/classes benchmarks/bin/ThreadCost.java [--connections N] \
 *     gzip|none RATE WARMUP REQUESTS ROUNDS NAME=PORT:PID...
 * </pre>
 *
 * The connections are the project's raw client ({@link RawHttp}, module aerun-testing: build it
 * first, e.g. with the servers).
 *
 * Context switches do not depend on what else the machine runs; CPU time does, so compare servers
 * window by window.
 */
public final class ThreadCost {
  private static final String USAGE =
      "usage: java -cp aerun-testing/target/classes ThreadCost.java [--connections N] gzip|none RATE WARMUP REQUESTS ROUNDS"
          + " NAME=PORT:PID...";

  public static void main(String[] args) throws Exception {
    int connections = 1;
    int next = 0;
    if (args.length > 1 && args[0].equals("--connections")) {
      connections = Integer.parseInt(args[1]);
      next = 2;
    }
    if (args.length - next < 6) {
      System.err.println(USAGE);
      System.exit(2);
    }
    String acceptEncoding = args[next].equals("none") ? null : args[next];
    double rate = Double.parseDouble(args[next + 1]);
    int warmup = Integer.parseInt(args[next + 2]);
    int requests = Integer.parseInt(args[next + 3]);
    int rounds = Integer.parseInt(args[next + 4]);
    byte[] body = new byte[1024];
    Arrays.fill(body, (byte) 'a');
    byte[] request = request(acceptEncoding, body);
    List<String> names = new ArrayList<>();
    List<Long> pids = new ArrayList<>();
    List<List<RawHttp>> servers = new ArrayList<>();
    for (int i = next + 5; i < args.length; i++) {
      String[] nameAndAddress = args[i].split("=", 2);
      String[] portAndPid = nameAndAddress[1].split(":", 2);
      names.add(nameAndAddress[0]);
      pids.add(Long.parseLong(portAndPid[1]));
      List<RawHttp> open = new ArrayList<>();
      for (int c = 0; c < connections; c++) {
        open.add(RawHttp.connect(Integer.parseInt(portAndPid[0])));
      }
      servers.add(open);
    }
    for (List<RawHttp> server : servers) {
      run(server, request, warmup, rate);
    }
    for (int round = 0; round < rounds; round++) {
      for (int s = 0; s < servers.size(); s++) {
        Map<String, Counters> before = threads(pids.get(s));
        run(servers.get(s), request, requests, rate);
        Map<String, Counters> after = threads(pids.get(s));
        print(round, names.get(s), before, after, requests);
      }
    }
  }

  /** Sends {@code count} requests at {@code rate} a second, round-robin over the connections. */
  private static void run(List<RawHttp> connections, byte[] request, int count, double rate)
      throws IOException, InterruptedException {
    long period = rate <= 0 ? 0 : (long) (1e9 / rate);
    long due = System.nanoTime();
    for (int i = 0; i < count; i++) {
      for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
        if (wait > 200_000) {
          Thread.sleep((wait - 100_000) / 1_000_000, (int) ((wait - 100_000) % 1_000_000));
        }
      }
      send(connections.get(i % connections.size()), request);
      due += period;
    }
  }

  /** One thread's counters so far. */
  private record Counters(String group, long voluntary, long involuntary, long cpuNanos) {}

  /** By thread id. */
  private static Map<String, Counters> threads(long pid) throws IOException {
    Map<String, Counters> threads = new HashMap<>();
    try (DirectoryStream<Path> tasks =
        Files.newDirectoryStream(Path.of("/proc/" + pid + "/task"))) {
      for (Path task : tasks) {
        try {
          long voluntary = 0;
          long involuntary = 0;
          for (String line : Files.readAllLines(task.resolve("status"))) {
            if (line.startsWith("voluntary_ctxt_switches:")) {
              voluntary = Long.parseLong(line.split("\\s+")[1]);
            } else if (line.startsWith("nonvoluntary_ctxt_switches:")) {
              involuntary = Long.parseLong(line.split("\\s+")[1]);
            }
          }
          long cpu = Long.parseLong(Files.readString(task.resolve("schedstat")).split(" ")[0]);
          String name = Files.readString(task.resolve("comm")).trim().replaceAll("[0-9]+", "N");
          threads.put(
              task.getFileName().toString(), new Counters(name, voluntary, involuntary, cpu));
        } catch (IOException ended) {
          // The thread ended between the listing and the read.
        }
      }
    }
    return threads;
  }

  private static void print(
      int round, String server, Map<String, Counters> before, Map<String, Counters> after, int n) {
    Map<String, double[]> groups = new TreeMap<>();
    for (Map.Entry<String, Counters> thread : after.entrySet()) {
      Counters end = thread.getValue();
      Counters start = before.getOrDefault(thread.getKey(), new Counters(end.group(), 0, 0, 0));
      double[] group = groups.computeIfAbsent(end.group(), k -> new double[3]);
      group[0] += (end.voluntary() - start.voluntary()) / (double) n;
      group[1] += (end.involuntary() - start.involuntary()) / (double) n;
      group[2] += (end.cpuNanos() - start.cpuNanos()) / 1000.0 / n;
    }
    System.out.printf(Locale.ROOT, "round %d, %s, per request:%n", round, server);
    double[] total = new double[3];
    for (Map.Entry<String, double[]> group : groups.entrySet()) {
      double[] g = group.getValue();
      for (int i = 0; i < 3; i++) {
        total[i] += g[i];
      }
      if (g[0] + g[1] >= 0.001 || g[2] >= 0.05) {
        System.out.printf(
            Locale.ROOT,
            "  %-20s %6.3f voluntary %6.3f involuntary switches %7.1f µs CPU%n",
            group.getKey(),
            g[0],
            g[1],
            g[2]);
      }
    }
    System.out.printf(
        Locale.ROOT,
        "  %-20s %6.3f voluntary %6.3f involuntary switches %7.1f µs CPU%n",
        "all threads",
        total[0],
        total[1],
        total[2]);
  }

  private static byte[] request(String acceptEncoding, byte[] body) {
    StringBuilder head =
        new StringBuilder("POST /bytes?size=32768 HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    if (acceptEncoding != null) {
      head.append("Accept-Encoding: ").append(acceptEncoding).append("\r\n");
    }
    head.append("Content-Type: application/octet-stream\r\n");
    head.append("Content-Length: ").append(body.length).append("\r\n\r\n");
    byte[] bytes = head.toString().getBytes(StandardCharsets.ISO_8859_1);
    byte[] all = Arrays.copyOf(bytes, bytes.length + body.length);
    System.arraycopy(body, 0, all, bytes.length, body.length);
    return all;
  }

  /** One request on a keep-alive connection, its answer read whole (the body into no buffer). */
  private static void send(RawHttp connection, byte[] request) throws IOException {
    connection.write(request);
    RawResponse response =
        connection.readResponse(false, OutputStream.nullOutputStream(), () -> {});
    if (response.statusLine() == null || response.status() != 200 || response.error() != null) {
      throw new IOException("answered " + response.statusLine() + " (" + response.error() + ")");
    }
  }
}
