package dev.aerun.bench.jmh;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnknownFieldSet;
import com.sun.management.OperatingSystemMXBean;
import com.sun.management.ThreadMXBean;
import dev.aerun.runtime.apis.ApiHost;
import dev.aerun.runtime.apis.ApiHostClient;
import dev.aerun.runtime.apis.ApiProxyHandler;
import dev.aerun.runtime.apis.AppEngineApis;
import dev.aerun.runtime.env.AppEnvironment;
import dev.aerun.runtime.security.LoginUrls;
import java.io.BufferedReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Method;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;
import org.eclipse.jetty.server.LocalConnector;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.handler.ContextHandler;
import org.eclipse.jetty.util.Callback;

/**
 * The API-host client, measured (not a timed test): a memcache get of a 100-byte value and a
 * datastore get of one entity, through the real local API host (its own JVM, from {@code
 * runtime-main/target/lib/apihost}), one at a time and 16 at once, made as an app makes them
 * ({@code ApiProxy.makeSyncCall} of Google's SDK in a request that {@link ApiProxyHandler} wraps),
 * against the baseline: a plain {@code java.net.http} POST of the same envelope bytes to the same
 * host from this JVM. Per case: calls/s, p50 and p99 latency, and this JVM's CPU and allocation per
 * call (all threads: the client's and the HTTP client's). Cases are interleaved over rounds.
 *
 * <p>Run from the repository root after {@code mvn package}: {@code java -cp
 * benchmarks/bench-jmh/target/bench-jmh.jar dev.aerun.bench.jmh.ApiCallsBench [seconds] [rounds]}.
 */
public final class ApiCallsBench {
  private static final String SECRET = "bench-secret";
  private static final String TICKET =
      "aerun-0123456789abcdef0123456789abcdef"; // the client's size

  private record Call(String name, String service, String method, byte[] payload) {}

  private record Result(double callsPerSecond, long p50, long p99, double cpuNanos, double bytes) {}

  public static void main(String[] args) throws Exception {
    int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 3;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    Path repo = Path.of("").toAbsolutePath();
    PrintStream out = System.out;
    Path data = Files.createTempDirectory("aerun-api-bench-");
    Process host = startHost(repo.resolve("runtime-main/target/lib/apihost"), data);
    int port = awaitPort(host);
    Path sdk =
        repo.resolve(
            "integration-tests/sample-apis-ee10/target/sample-apis-ee10/WEB-INF/lib/"
                + "appengine-api-1.0-sdk-4.0.2.jar");
    ClassLoader loader =
        new URLClassLoader(new URL[] {sdk.toUri().toURL()}, ClassLoader.getPlatformClassLoader());
    Method makeSyncCall =
        Class.forName("com.google.apphosting.api.ApiProxy", true, loader)
            .getMethod("makeSyncCall", String.class, String.class, byte[].class);
    Runner runner = new Runner(makeSyncCall);
    ContextHandler app = new ContextHandler(runner, "/");
    app.setClassLoader(loader);
    ApiHostClient apiClient = new ApiHostClient(new ApiHost("127.0.0.1", port, SECRET, "bench"));
    Server server = new Server();
    LocalConnector connector = new LocalConnector(server);
    server.addConnector(connector);
    server.setHandler(
        new ApiProxyHandler(
            new AppEngineApis(
                new AppEnvironment("bench", "v1", "default", "bench", true),
                LoginUrls.defaults(),
                "bench",
                apiClient),
            app));
    server.start();
    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    URI rpc = URI.create("http://127.0.0.1:" + port + "/rpc_http");
    try {
      // MemcacheSetRequest { group Item = 1 { key = 2; value = 3; } }
      byte[] set = message(1, new Group(message(2, "k", 3, "v".repeat(100)))).toByteArray();
      runner.client(new Call(null, "memcache", "Set", set), connector, 0);
      // PutRequest { entity = 1: EntityProto { key = 13, entity_group = 16: Path, property = 14 } }
      // Property { name = 3: "p", value = 5: PropertyValue { stringValue = 3 }, multiple = 4 }
      UnknownFieldSet property = message(3, "p", 5, message(3, "d".repeat(100)), 4, 0L);
      byte[] put = message(1, message(13, reference(), 16, path(), 14, property)).toByteArray();
      runner.client(new Call(null, "datastore_v3", "Put", put), connector, 0);
      List<Call> calls =
          List.of(
              new Call("memcache get 100 B", "memcache", "Get", message(1, "k").toByteArray()),
              new Call(
                  "datastore get", "datastore_v3", "Get", message(1, reference()).toByteArray()));
      out.printf(
          "API calls through the local API host (127.0.0.1:%d), %d s per case, %d rounds,"
              + " JDK %s, %d CPUs%n",
          port, seconds, rounds, Runtime.version(), Runtime.getRuntime().availableProcessors());
      out.println(
          "| call | threads | path | calls/s | p50 µs | p99 µs | CPU µs/call | alloc B/call |");
      out.println("|---|---|---|---|---|---|---|---|");
      // Round 0 is the warm-up: every case for a round's time, not printed.
      PrintStream table = new PrintStream(OutputStream.nullOutputStream());
      for (int round = 0; round <= rounds; round++, table = out) {
        for (Call call : calls) {
          for (int threads : new int[] {1, 16}) {
            Result client =
                measure(threads, seconds, () -> runner.client(call, connector, seconds));
            Result base = measure(threads, seconds, () -> baseline(http, rpc, call, seconds));
            row(table, call, threads, "client", client);
            row(table, call, threads, "baseline", base);
            table.printf(
                "| %s | %d | client - baseline | | %+d | %+d | %+.1f | %+.0f |%n",
                call.name(),
                threads,
                (client.p50() - base.p50()) / 1000,
                (client.p99() - base.p99()) / 1000,
                (client.cpuNanos() - base.cpuNanos()) / 1000,
                client.bytes() - base.bytes());
          }
        }
      }
    } finally {
      server.stop();
      host.getOutputStream().close(); // the host writes its data and exits
      host.waitFor();
    }
    System.exit(0);
  }

  private static void row(PrintStream out, Call call, int threads, String path, Result r) {
    out.printf(
        "| %s | %d | %s | %.0f | %d | %d | %.1f | %.0f |%n",
        call.name(),
        threads,
        path,
        r.callsPerSecond(),
        r.p50() / 1000,
        r.p99() / 1000,
        r.cpuNanos() / 1000,
        r.bytes());
  }

  /** Runs {@code threads} copies of {@code task} (each answering its latencies, ns) at once. */
  private static Result measure(int threads, int seconds, Callable<long[]> task) throws Exception {
    OperatingSystemMXBean os = ManagementFactory.getPlatformMXBean(OperatingSystemMXBean.class);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    long cpu = os.getProcessCpuTime();
    long allocated = allocatedBytes();
    long start = System.nanoTime();
    List<Future<long[]>> done = pool.invokeAll(Collections.nCopies(threads, task));
    long took = System.nanoTime() - start;
    double cpuUsed = os.getProcessCpuTime() - cpu;
    double bytes = allocatedBytes() - allocated;
    pool.shutdown();
    LongStream latencies = LongStream.empty();
    for (Future<long[]> f : done) {
      latencies = LongStream.concat(latencies, Arrays.stream(f.get()));
    }
    long[] sorted = latencies.sorted().toArray();
    int n = sorted.length;
    return new Result(
        n * 1e9 / took,
        sorted[n / 2],
        sorted[Math.min(n - 1, (int) (n * 0.99))],
        cpuUsed / n,
        bytes / n);
  }

  /** Bytes allocated so far by every live thread of this JVM. */
  private static long allocatedBytes() {
    ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
    return Arrays.stream(threads.getThreadAllocatedBytes(threads.getAllThreadIds()))
        .filter(b -> b > 0)
        .sum();
  }

  /** The baseline: the same envelope, POSTed with the same headers, nothing else. */
  private static long[] baseline(HttpClient http, URI rpc, Call call, int seconds)
      throws Exception {
    byte[] envelope = envelope(call);
    return repeat(
        seconds,
        () -> {
          HttpResponse<byte[]> response =
              http.send(
                  HttpRequest.newBuilder(rpc)
                      .timeout(Duration.ofSeconds(11))
                      .header("X-Google-RPC-Service-Endpoint", "app-engine-apis")
                      .header("X-Google-RPC-Service-Method", "/VMRemoteAPI.CallRemoteAPI")
                      .header("X-Google-RPC-Service-Deadline", "10.0")
                      .header("Content-Type", "application/octet-stream")
                      .header(ApiHost.SECRET_HEADER, SECRET)
                      .POST(HttpRequest.BodyPublishers.ofByteArray(envelope))
                      .build(),
                  HttpResponse.BodyHandlers.ofByteArray());
          if (response.statusCode() != 200) {
            throw new IllegalStateException("baseline answered " + response.statusCode());
          }
          return response;
        });
  }

  /** Runs {@code action} again and again for {@code seconds}, at least once: each run's ns. */
  private static long[] repeat(int seconds, Callable<?> action) throws Exception {
    long[] latencies = new long[4096];
    int n = 0;
    long end = System.nanoTime() + seconds * 1_000_000_000L;
    do {
      if (n == latencies.length) {
        latencies = Arrays.copyOf(latencies, n * 2);
      }
      long start = System.nanoTime();
      action.call();
      latencies[n++] = System.nanoTime() - start;
    } while (System.nanoTime() < end);
    return Arrays.copyOf(latencies, n);
  }

  /** Runs calls inside requests, as an app does: the request's thread has its environment. */
  private static final class Runner extends org.eclipse.jetty.server.Handler.Abstract {
    private final Method makeSyncCall;
    private final Map<Integer, Job> jobs = new ConcurrentHashMap<>();
    private final AtomicInteger ids = new AtomicInteger();

    private record Job(Call call, int seconds, long[][] latencies) {}

    Runner(Method makeSyncCall) {
      this.makeSyncCall = makeSyncCall;
    }

    /** One request that makes calls for {@code seconds} (one call for 0). */
    long[] client(Call call, LocalConnector connector, int seconds) throws Exception {
      long[][] latencies = new long[1][];
      int id = ids.incrementAndGet();
      jobs.put(id, new Job(call, seconds, latencies));
      try {
        String response =
            connector.getResponse(
                "GET /?job=" + id + " HTTP/1.1\r\nHost: localhost\r\n\r\n",
                seconds + 60L,
                TimeUnit.SECONDS);
        if (response == null || !response.startsWith("HTTP/1.1 200")) {
          throw new IllegalStateException("bench request failed: " + response);
        }
        return latencies[0];
      } finally {
        jobs.remove(id);
      }
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
      Job current = jobs.get(Integer.parseInt(request.getHttpURI().getQuery().substring(4)));
      Call call = current.call();
      current.latencies()[0] =
          repeat(
              current.seconds(),
              () -> makeSyncCall.invoke(null, call.service(), call.method(), call.payload()));
      response.setStatus(200);
      callback.succeeded();
      return true;
    }
  }

  private static Process startHost(Path lib, Path data) throws Exception {
    Process host =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                lib.resolve("*").toString(),
                "dev.aerun.apihost.LocalApiHostMain",
                "--app-dir",
                data.toString(),
                "--storage",
                data.toString(),
                "--app-id",
                "bench")
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    OutputStream in = host.getOutputStream();
    in.write((SECRET + "\n").getBytes(StandardCharsets.UTF_8));
    in.flush();
    return host;
  }

  private static int awaitPort(Process host) throws Exception {
    BufferedReader out = host.inputReader(StandardCharsets.UTF_8);
    for (String line; (line = out.readLine()) != null; ) {
      if (line.startsWith("aerun-api-host serving at 127.0.0.1:")) {
        return Integer.parseInt(line.substring(line.lastIndexOf(':') + 1).trim());
      }
    }
    throw new IllegalStateException("the local API host did not start");
  }

  // The service messages, through protobuf's unknown-field sets (proto2 groups where the services
  // use them): fields are (number, value) pairs; a String, byte[] or message is length-delimited.

  private record Group(UnknownFieldSet fields) {}

  /** Reference {app = 13: "bench", path = 14: Path}. */
  private static UnknownFieldSet reference() {
    return message(13, "bench", 14, path());
  }

  /** Path {group Element = 1 {type = 2: "E", name = 4: "e"}}. */
  private static UnknownFieldSet path() {
    return message(1, new Group(message(2, "E", 4, "e")));
  }

  private static byte[] envelope(Call call) {
    return message(2, call.service(), 3, call.method(), 4, call.payload(), 5, TICKET).toByteArray();
  }

  /** A message of (number, value) pairs: a Long is a varint, a {@link Group} a group. */
  private static UnknownFieldSet message(Object... fields) {
    UnknownFieldSet.Builder message = UnknownFieldSet.newBuilder();
    for (int i = 0; i < fields.length; i += 2) {
      UnknownFieldSet.Field.Builder field = UnknownFieldSet.Field.newBuilder();
      Object value = fields[i + 1];
      if (value instanceof Long varint) {
        field.addVarint(varint);
      } else if (value instanceof Group group) {
        field.addGroup(group.fields());
      } else if (value instanceof UnknownFieldSet nested) {
        field.addLengthDelimited(nested.toByteString());
      } else if (value instanceof String text) {
        field.addLengthDelimited(ByteString.copyFromUtf8(text));
      } else {
        field.addLengthDelimited(ByteString.copyFrom((byte[]) value));
      }
      message.mergeField((Integer) fields[i], field.build());
    }
    return message.build();
  }

  private ApiCallsBench() {}
}
