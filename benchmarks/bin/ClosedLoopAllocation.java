import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Bytes allocated and CPU time per request of the CPU scenario's request ({@code POST
 * /bytes?size=32768}, 1 KiB in), sent one at a time on one keep-alive connection per server, the
 * servers interleaved window by window. Closed loop, so that what the server does between requests
 * (thread pools parking and waking, which a fixed low rate makes vary from round to round) weighs
 * next to nothing. Each server must serve the benchmark app (its {@code GET /stats}); start them by
 * hand, as docs/PROTOCOLS.md shows.
 *
 * <pre>
 * java benchmarks/bin/ClosedLoopAllocation.java gzip|none WARMUP REQUESTS ROUNDS NAME=PORT...
 * </pre>
 *
 * Prints, per server, the median and range of the rounds' bytes and CPU microseconds per request
 * (the whole server process: every thread's allocation, and process CPU time).
 */
public final class ClosedLoopAllocation {
  private static final Pattern ALLOCATED = Pattern.compile("\"allocatedBytes\":(\\d+)");
  private static final Pattern CPU = Pattern.compile("\"processCpuNanos\":(\\d+)");
  private static final String PATH = "/bytes?size=32768";

  public static void main(String[] args) throws Exception {
    if (args.length < 5) {
      System.err.println(
          "usage: java ClosedLoopAllocation.java gzip|none WARMUP REQUESTS ROUNDS NAME=PORT...");
      System.exit(2);
    }
    String acceptEncoding = args[0].equals("none") ? null : args[0];
    int warmup = Integer.parseInt(args[1]);
    int requests = Integer.parseInt(args[2]);
    int rounds = Integer.parseInt(args[3]);
    byte[] body = new byte[1024];
    Arrays.fill(body, (byte) 'a');
    Map<String, Connection> servers = new LinkedHashMap<>();
    for (int i = 4; i < args.length; i++) {
      String[] nameAndPort = args[i].split("=", 2);
      servers.put(nameAndPort[0], new Connection(Integer.parseInt(nameAndPort[1])));
    }
    for (Connection server : servers.values()) {
      for (int i = 0; i < warmup; i++) {
        server.send("POST", PATH, body, acceptEncoding);
      }
    }
    Map<String, List<Double>> bytes = new LinkedHashMap<>();
    Map<String, List<Double>> micros = new LinkedHashMap<>();
    for (int round = 0; round < rounds; round++) {
      for (Map.Entry<String, Connection> server : servers.entrySet()) {
        long[] before = server.getValue().stats();
        for (int i = 0; i < requests; i++) {
          server.getValue().send("POST", PATH, body, acceptEncoding);
        }
        long[] after = server.getValue().stats();
        bytes.computeIfAbsent(server.getKey(), k -> new ArrayList<>())
            .add((after[0] - before[0]) / (double) requests);
        micros.computeIfAbsent(server.getKey(), k -> new ArrayList<>())
            .add((after[1] - before[1]) / 1000.0 / requests);
      }
    }
    for (String name : servers.keySet()) {
      System.out.printf(
          Locale.ROOT,
          "%s, Accept-Encoding %s: %s B allocated, %s µs CPU per request (%d rounds of %d)%n",
          name,
          acceptEncoding == null ? "none" : acceptEncoding,
          medianAndRange(bytes.get(name)),
          medianAndRange(micros.get(name)),
          rounds,
          requests);
    }
  }

  private static String medianAndRange(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    sorted.sort(null);
    return String.format(
        Locale.ROOT,
        "%.0f (%.0f–%.0f)",
        sorted.get(sorted.size() / 2),
        sorted.get(0),
        sorted.get(sorted.size() - 1));
  }

  /** One keep-alive HTTP/1.1 connection to 127.0.0.1, read just enough to frame responses. */
  private static final class Connection {
    private final InputStream in;
    private final OutputStream out;

    Connection(int port) throws IOException {
      Socket socket = new Socket("127.0.0.1", port);
      socket.setTcpNoDelay(true);
      in = new BufferedInputStream(socket.getInputStream(), 64 * 1024);
      out = socket.getOutputStream();
    }

    /** The readings of {@code GET /stats}: allocated bytes and process CPU nanoseconds. */
    long[] stats() throws IOException {
      String json = new String(send("GET", "/stats", null, null), StandardCharsets.US_ASCII);
      return new long[] {number(ALLOCATED, json), number(CPU, json)};
    }

    private static long number(Pattern pattern, String json) {
      Matcher matcher = pattern.matcher(json);
      if (!matcher.find()) {
        throw new IllegalStateException("no " + pattern + " in " + json);
      }
      return Long.parseLong(matcher.group(1));
    }

    byte[] send(String method, String path, byte[] body, String acceptEncoding)
        throws IOException {
      StringBuilder head = new StringBuilder(method + " " + path + " HTTP/1.1\r\n");
      head.append("Host: 127.0.0.1\r\n");
      if (acceptEncoding != null) {
        head.append("Accept-Encoding: ").append(acceptEncoding).append("\r\n");
      }
      if (body != null) {
        head.append("Content-Type: application/octet-stream\r\n");
        head.append("Content-Length: ").append(body.length).append("\r\n");
      }
      out.write(head.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1));
      if (body != null) {
        out.write(body);
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
