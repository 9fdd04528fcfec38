import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Bytes allocated, CPU time and requests per second of one request, sent in a closed loop on
 * keep-alive connections to each server, the servers interleaved window by window. Closed loop, so
 * that what the server does between requests (thread pools parking and waking, which a fixed low
 * rate makes vary from round to round) weighs next to nothing. Each server must serve the benchmark
 * app (its {@code GET /stats}); start them by hand, as docs/PROTOCOLS.md shows. A server is named
 * with its TCP port on 127.0.0.1 or with {@code unix:PATH}, its Unix-domain socket, so the same
 * runtime can be measured over both transports.
 *
 * <pre>
 * java benchmarks/bin/ClosedLoopAllocation.java [--get PATH] [--connections N] \
 *     gzip|none WARMUP REQUESTS ROUNDS NAME=PORT|NAME=unix:SOCKET...
 * </pre>
 *
 * The request is the CPU scenario's ({@code POST /bytes?size=32768}, 1 KiB in) unless {@code --get}
 * names a path. {@code --connections N} (default 1) sends each window's REQUESTS on N connections
 * at once, one request at a time on each. Prints, per server, the median and range of the rounds'
 * requests per second, bytes and CPU microseconds per request (the whole server process: every
 * thread's allocation, and process CPU time), and for every server after the first the median and
 * range of its per-round ratios to the first.
 */
public final class ClosedLoopAllocation {
  private static final Pattern ALLOCATED = Pattern.compile("\"allocatedBytes\":(\\d+)");
  private static final Pattern CPU = Pattern.compile("\"processCpuNanos\":(\\d+)");
  private static final Request STATS = new Request("GET", "/stats", null, null);
  private static final String USAGE =
      "usage: java ClosedLoopAllocation.java [--get PATH] [--connections N]"
          + " gzip|none WARMUP REQUESTS ROUNDS NAME=PORT|NAME=unix:SOCKET...";

  public static void main(String[] args) throws Exception {
    String method = "POST";
    String path = "/bytes?size=32768";
    byte[] body = new byte[1024];
    Arrays.fill(body, (byte) 'a');
    int connections = 1;
    int next = 0;
    for (; next + 1 < args.length && args[next].startsWith("--"); next += 2) {
      switch (args[next]) {
        case "--get":
          method = "GET";
          path = args[next + 1];
          body = null;
          break;
        case "--connections":
          connections = Integer.parseInt(args[next + 1]);
          break;
        default:
          usage();
      }
    }
    if (args.length - next < 5 || connections < 1) {
      usage();
    }
    String acceptEncoding = args[next].equals("none") ? null : args[next];
    int warmup = Integer.parseInt(args[next + 1]);
    int perConnection = Integer.parseInt(args[next + 2]) / connections;
    int requests = perConnection * connections;
    int rounds = Integer.parseInt(args[next + 3]);
    Request request = new Request(method, path, body, acceptEncoding);
    Map<String, Server> servers = new LinkedHashMap<>();
    for (int i = next + 4; i < args.length; i++) {
      String[] nameAndAddress = args[i].split("=", 2);
      servers.put(nameAndAddress[0], new Server(address(nameAndAddress[1]), connections));
    }
    ExecutorService clients = Executors.newFixedThreadPool(connections);
    for (Server server : servers.values()) {
      server.run(clients, request, Math.max(1, warmup / connections));
    }
    Map<String, Map<Metric, List<Double>>> readings = new LinkedHashMap<>();
    for (int round = 0; round < rounds; round++) {
      for (Map.Entry<String, Server> server : servers.entrySet()) {
        long[] before = server.getValue().stats();
        long start = System.nanoTime();
        server.getValue().run(clients, request, perConnection);
        long elapsed = System.nanoTime() - start;
        long[] after = server.getValue().stats();
        Map<Metric, List<Double>> reading =
            readings.computeIfAbsent(server.getKey(), k -> new EnumMap<>(Metric.class));
        reading
            .computeIfAbsent(Metric.THROUGHPUT, k -> new ArrayList<>())
            .add(requests * 1e9 / elapsed);
        reading
            .computeIfAbsent(Metric.ALLOCATION, k -> new ArrayList<>())
            .add((after[0] - before[0]) / (double) requests);
        reading
            .computeIfAbsent(Metric.CPU, k -> new ArrayList<>())
            .add((after[1] - before[1]) / 1000.0 / requests);
      }
    }
    clients.shutdown();
    String first = servers.keySet().iterator().next();
    for (String name : servers.keySet()) {
      List<String> values = new ArrayList<>();
      List<String> ratios = new ArrayList<>();
      for (Map.Entry<Metric, List<Double>> reading : readings.get(name).entrySet()) {
        Metric metric = reading.getKey();
        values.add(medianAndRange(metric.format, reading.getValue()) + " " + metric.label);
        List<Double> ratio = new ArrayList<>();
        List<Double> baseline = readings.get(first).get(metric);
        for (int round = 0; round < rounds; round++) {
          ratio.add(reading.getValue().get(round) / baseline.get(round));
        }
        ratios.add(medianAndRange("%.2f", ratio) + "× " + metric.label);
      }
      System.out.printf(
          Locale.ROOT,
          "%s, %s %s, %d connection%s, Accept-Encoding %s: %s (%d rounds of %d)%n",
          name,
          method,
          path,
          connections,
          connections == 1 ? "" : "s",
          acceptEncoding == null ? "none" : acceptEncoding,
          String.join(", ", values),
          rounds,
          requests);
      if (!name.equals(first)) {
        System.out.printf(
            Locale.ROOT, "  %s ÷ %s, round by round: %s%n", name, first, String.join(", ", ratios));
      }
    }
  }

  private static void usage() {
    System.err.println(USAGE);
    System.exit(2);
  }

  private static SocketAddress address(String portOrSocket) {
    return portOrSocket.startsWith("unix:")
        ? UnixDomainSocketAddress.of(portOrSocket.substring("unix:".length()))
        : new InetSocketAddress("127.0.0.1", Integer.parseInt(portOrSocket));
  }

  private static String medianAndRange(String format, List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    sorted.sort(null);
    return String.format(
        Locale.ROOT,
        format + " (" + format + "–" + format + ")",
        sorted.get(sorted.size() / 2),
        sorted.get(0),
        sorted.get(sorted.size() - 1));
  }

  /** What is read in every window, per request. */
  private enum Metric {
    THROUGHPUT("req/s", "%.0f"),
    ALLOCATION("B allocated", "%.0f"),
    CPU("µs CPU", "%.1f");

    final String label;
    final String format;

    Metric(String label, String format) {
      this.label = label;
      this.format = format;
    }
  }

  /** What every request of a run sends. */
  private record Request(String method, String path, byte[] body, String acceptEncoding) {}

  /** One server's connections: the first also reads {@code /stats} between windows. */
  private static final class Server {
    private final List<Connection> connections = new ArrayList<>();

    Server(SocketAddress address, int count) throws IOException {
      for (int i = 0; i < count; i++) {
        connections.add(new Connection(address));
      }
    }

    long[] stats() throws IOException {
      return connections.get(0).stats();
    }

    /** Sends {@code count} requests on every connection at once; returns when all are answered. */
    void run(ExecutorService clients, Request request, int count) throws Exception {
      List<Future<?>> running = new ArrayList<>();
      for (Connection connection : connections) {
        running.add(
            clients.submit(
                () -> {
                  for (int i = 0; i < count; i++) {
                    connection.send(request);
                  }
                  return null;
                }));
      }
      for (Future<?> done : running) {
        done.get();
      }
    }
  }

  /**
   * One keep-alive HTTP/1.1 connection, over TCP or a Unix-domain socket (a blocking channel either
   * way, so that the client does the same work for both), read just enough to frame responses.
   */
  private static final class Connection {
    private final InputStream in;
    private final OutputStream out;

    Connection(SocketAddress address) throws IOException {
      SocketChannel channel =
          SocketChannel.open(
              address instanceof UnixDomainSocketAddress
                  ? StandardProtocolFamily.UNIX
                  : StandardProtocolFamily.INET);
      if (!(address instanceof UnixDomainSocketAddress)) {
        channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
      }
      channel.connect(address);
      in = new BufferedInputStream(Channels.newInputStream(channel), 64 * 1024);
      out = Channels.newOutputStream(channel);
    }

    /** The readings of {@code GET /stats}: allocated bytes and process CPU nanoseconds. */
    long[] stats() throws IOException {
      String json = new String(send(STATS), StandardCharsets.US_ASCII);
      return new long[] {number(ALLOCATED, json), number(CPU, json)};
    }

    private static long number(Pattern pattern, String json) {
      Matcher matcher = pattern.matcher(json);
      if (!matcher.find()) {
        throw new IllegalStateException("no " + pattern + " in " + json);
      }
      return Long.parseLong(matcher.group(1));
    }

    byte[] send(Request request) throws IOException {
      StringBuilder head =
          new StringBuilder(request.method() + " " + request.path() + " HTTP/1.1\r\n");
      head.append("Host: 127.0.0.1\r\n");
      if (request.acceptEncoding() != null) {
        head.append("Accept-Encoding: ").append(request.acceptEncoding()).append("\r\n");
      }
      if (request.body() != null) {
        head.append("Content-Type: application/octet-stream\r\n");
        head.append("Content-Length: ").append(request.body().length).append("\r\n");
      }
      out.write(head.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1));
      if (request.body() != null) {
        out.write(request.body());
      }
      out.flush();
      return response();
    }

    private byte[] response() throws IOException {
      String status = line();
      if (!status.startsWith("HTTP/1.1 200 ")) {
        throw new IOException("answered " + status);
      }
      long length = -1;
      boolean chunked = false;
      for (String header = line(); !header.isEmpty(); header = line()) {
        String lower = header.toLowerCase(Locale.ROOT);
        if (lower.startsWith("content-length:")) {
          length = Long.parseLong(header.substring("content-length:".length()).trim());
        } else if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
          chunked = true;
        }
      }
      ByteArrayOutputStream body = new ByteArrayOutputStream();
      if (!chunked) {
        body.write(in.readNBytes((int) length));
        return body.toByteArray();
      }
      for (int size = chunkSize(); size > 0; size = chunkSize()) {
        body.write(in.readNBytes(size));
        line();
      }
      while (!line().isEmpty()) {
        // trailers
      }
      return body.toByteArray();
    }

    private int chunkSize() throws IOException {
      return Integer.parseInt(line().split(";", 2)[0].trim(), 16);
    }

    private String line() throws IOException {
      StringBuilder line = new StringBuilder();
      for (int c = in.read(); c != '\n'; c = in.read()) {
        if (c < 0) {
          throw new EOFException();
        }
        if (c != '\r') {
          line.append((char) c);
        }
      }
      return line.toString();
    }
  }
}
