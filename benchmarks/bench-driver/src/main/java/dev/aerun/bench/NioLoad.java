package dev.aerun.bench;

import dev.aerun.bench.LoadGenerator.ClosedRun;
import dev.aerun.bench.LoadGenerator.Load;
import dev.aerun.bench.LoadGenerator.RateRun;
import dev.aerun.testing.ResponseParser;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;

/**
 * The load generator's engine: keep-alive HTTP/1.1 connections to one address, served by one
 * selector thread, requests encoded once into a direct buffer, responses read only as far as their
 * framing ({@link ResponseParser}). One run per instance.
 *
 * <p>Open loop: the calling thread keeps the schedule (parking, and spinning the last 60 µs at low
 * rates) and sends each request on an idle connection; when none is idle the request waits in a
 * queue and goes out on the next connection that frees up. Latency counts from the scheduled time,
 * so a server that stalls is charged for every request the stall delayed. The generator's own
 * lateness, from the scheduled time to the moment its thread got round to the request, goes into a
 * second histogram: it is what the generator adds to the latency it reports.
 *
 * <p>Closed loop: every connection sends its next request as soon as the previous answer is
 * complete; the completion rate is the server's peak throughput at that concurrency.
 */
final class NioLoad {
  private static final long WAIT_FOR_ANSWERS_NANOS = TimeUnit.SECONDS.toNanos(25);

  /** A connection idle at least this long is checked for a close by the server before use. */
  private static final long IDLE_CHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

  /** At or below this rate the schedule is kept by spinning the last 60 µs before each send. */
  private static final double SPIN_RATE_LIMIT = 1000;

  private final InetSocketAddress address;
  private final ByteBuffer request;
  private final boolean head;
  private final Selector selector;
  private final ByteBuffer readBuffer = ByteBuffer.allocateDirect(64 * 1024);
  private final List<NioConn> conns = new ArrayList<>();
  private final Histogram latency = new Histogram(LoadGenerator.HIGHEST_MICROS, 3);
  private final long[] statuses = new long[600];

  // Guarded by this: the hand-off of connections between the sender and the selector thread.
  private final ArrayDeque<NioConn> idle = new ArrayDeque<>();
  private final LongQueue backlog = new LongQueue();

  // Written by the selector thread only.
  private long ok;
  private long errors;
  private volatile long completed;
  private volatile long lastCompletion;
  private volatile boolean stop;
  private volatile Throwable selectorFailure;

  // Open loop: told of each request that went out, as it ends.
  private Consumer<LoadGenerator.Outcome> each = outcome -> {};

  // Closed loop only.
  private boolean closedLoop;
  private long closedLoopEnd;

  private NioLoad(InetSocketAddress address, Load load, int connections) throws IOException {
    this.address = address;
    this.head = load.method().equals("HEAD");
    this.request = encode(address, load);
    this.selector = Selector.open();
    for (int i = 0; i < connections; i++) {
      conns.add(connect());
    }
  }

  /** The request as bytes on the wire, once. */
  static ByteBuffer encode(InetSocketAddress address, Load load) {
    StringBuilder head = new StringBuilder();
    head.append(load.method()).append(' ').append(load.path()).append(" HTTP/1.1\r\n");
    head.append("Host: ").append(address.getHostString()).append(':').append(address.getPort());
    head.append("\r\nUser-Agent: aerun-bench\r\n");
    byte[] body = load.body();
    if (body != null) {
      head.append("Content-Type: application/octet-stream\r\nContent-Length: ")
          .append(body.length)
          .append("\r\n");
    }
    head.append("\r\n");
    byte[] headBytes = head.toString().getBytes(StandardCharsets.US_ASCII);
    ByteBuffer buffer =
        ByteBuffer.allocateDirect(headBytes.length + (body == null ? 0 : body.length));
    buffer.put(headBytes);
    if (body != null) {
      buffer.put(body);
    }
    return buffer.flip().asReadOnlyBuffer();
  }

  /** See {@link LoadGenerator#openLoop}. */
  static RateRun openLoop(
      InetSocketAddress address, Load load, double rate, Duration duration, int connections)
      throws IOException {
    return openLoop(address, load, rate, duration, connections, outcome -> {});
  }

  /** See {@link LoadGenerator#openLoop(int, Load, double, Duration, int, Consumer)}. */
  static RateRun openLoop(
      InetSocketAddress address,
      Load load,
      double rate,
      Duration duration,
      int connections,
      Consumer<LoadGenerator.Outcome> each)
      throws IOException {
    NioLoad run = new NioLoad(address, load, connections);
    run.each = each;
    try {
      return run.runOpenLoop(rate, duration);
    } finally {
      run.close();
    }
  }

  /** See {@link LoadGenerator#closedLoop}. */
  static ClosedRun closedLoop(InetSocketAddress address, Load load, int connections, Duration time)
      throws IOException {
    NioLoad run = new NioLoad(address, load, connections);
    try {
      return run.runClosedLoop(time);
    } finally {
      run.close();
    }
  }

  private RateRun runOpenLoop(double rate, Duration duration) {
    Histogram lag = new Histogram(LoadGenerator.HIGHEST_MICROS, 3);
    idle.addAll(conns);
    long count = Math.max(1, Math.round(rate * duration.toNanos() / 1e9));
    double periodNanos = 1e9 / rate;
    boolean spin = rate <= SPIN_RATE_LIMIT;
    long cpuBefore = CpuClock.processCpuNanos();
    Thread selectorThread = startSelector();
    long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(2);
    long sent = 0;
    for (; sent < count && selectorFailure == null; sent++) {
      long intended = start + (long) (sent * periodNanos);
      waitUntil(intended, spin);
      lag.recordValue(
          Math.min(LoadGenerator.HIGHEST_MICROS, (System.nanoTime() - intended) / 1000));
      NioConn conn = takeIdle(intended);
      if (conn != null) {
        send(conn, intended);
      }
    }
    awaitAnswers(sent);
    stopSelector(selectorThread);
    long cpu = CpuClock.processCpuNanos() - cpuBefore;
    long unanswered = sent - completed;
    long end = Math.max(lastCompletion, start + 1);
    double achieved = ok / ((end - start) / 1e9);
    return new RateRun(
        latency,
        lag,
        rate,
        sent,
        ok,
        errors + unanswered + (count - sent),
        achieved,
        lag.getMaxValue(),
        statusCounts(),
        cpu);
  }

  private ClosedRun runClosedLoop(Duration duration) {
    closedLoop = true;
    long cpuBefore = CpuClock.processCpuNanos();
    long start = System.nanoTime();
    closedLoopEnd = start + duration.toNanos();
    for (NioConn conn : conns) {
      send(conn, System.nanoTime());
    }
    Thread selectorThread = startSelector();
    awaitAnswers(Long.MAX_VALUE);
    stopSelector(selectorThread);
    long cpu = CpuClock.processCpuNanos() - cpuBefore;
    long end = Math.max(lastCompletion, start + 1);
    double seconds = (end - start) / 1e9;
    return new ClosedRun(
        latency, conns.size(), ok, errors, ok / seconds, seconds, statusCounts(), cpu);
  }

  /**
   * An idle connection the server has not closed, or {@code null} with {@code intended} queued for
   * the next one that frees up. A server closes a keep-alive connection that stayed idle past its
   * idle timeout; the selector replaces it once it reads the close, but a request sent before that
   * would meet a connection the server had already closed (the client's mistake, not a server
   * failure), so one idle for a while is checked first.
   */
  private NioConn takeIdle(long intended) {
    while (true) {
      NioConn conn;
      synchronized (this) {
        conn = idle.pollFirst();
        if (conn == null) {
          backlog.add(intended);
          return null;
        }
      }
      if (System.nanoTime() - conn.lastDone < IDLE_CHECK_NANOS || !closedByServer(conn)) {
        return conn;
      }
      // Left to the selector, which sees the same end of stream and replaces it.
    }
  }

  /** Whether the server closed (or reset) {@code conn}: it has nothing to say on an idle one. */
  private static boolean closedByServer(NioConn conn) {
    try {
      return conn.channel.read(ByteBuffer.allocate(1)) != 0;
    } catch (IOException e) {
      return true;
    }
  }

  /**
   * Waits until {@code sent} answers are in (closed loop: until every connection is done), or the
   * bound.
   */
  private void awaitAnswers(long sent) {
    long deadline = (closedLoop ? closedLoopEnd : System.nanoTime()) + WAIT_FOR_ANSWERS_NANOS;
    while (System.nanoTime() < deadline && selectorFailure == null) {
      if (closedLoop ? busyCount() == 0 && System.nanoTime() > closedLoopEnd : completed >= sent) {
        return;
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
    }
  }

  private synchronized long busyCount() {
    return conns.stream().filter(c -> c.busy).count();
  }

  private Thread startSelector() {
    Thread thread = new Thread(this::selectLoop, "bench-load-selector");
    thread.setDaemon(true);
    thread.start();
    return thread;
  }

  private void stopSelector(Thread thread) {
    stop = true;
    selector.wakeup();
    try {
      thread.join(TimeUnit.SECONDS.toMillis(10));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void selectLoop() {
    try {
      while (!stop) {
        selector.select(100);
        Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
        while (keys.hasNext()) {
          SelectionKey key = keys.next();
          keys.remove();
          if (key.isValid() && key.isReadable()) {
            read((NioConn) key.attachment());
          }
        }
      }
    } catch (Throwable e) {
      selectorFailure = e;
    }
  }

  private void read(NioConn conn) throws IOException {
    readBuffer.clear();
    int n;
    try {
      n = conn.channel.read(readBuffer);
    } catch (IOException e) {
      n = -1;
    }
    if (n < 0) {
      boolean answered = conn.busy && conn.parser.readsUntilClose();
      if (answered) {
        complete(conn, conn.parser.status());
      } else {
        fail(conn);
      }
      return;
    }
    readBuffer.flip();
    while (readBuffer.hasRemaining()) {
      if (!conn.busy) {
        fail(conn); // bytes nobody asked for
        return;
      }
      boolean done;
      try {
        done = conn.parser.parse(readBuffer);
      } catch (IllegalStateException e) {
        fail(conn);
        return;
      }
      if (!done) {
        return;
      }
      if (!complete(conn, conn.parser.status())) {
        return;
      }
    }
  }

  /**
   * A response is complete: records it, then gives the connection its next request (the queue's
   * oldest, or in closed loop a new one) or back to the idle ones. Returns {@code false} when the
   * connection was replaced.
   */
  private boolean complete(NioConn conn, int status) throws IOException {
    long now = System.nanoTime();
    statuses[Math.min(Math.max(status, 0), statuses.length - 1)]++;
    if (status / 100 == 2) {
      latency.recordValue(Math.min(LoadGenerator.HIGHEST_MICROS, (now - conn.intended) / 1000));
      ok++;
    } else {
      errors++;
    }
    lastCompletion = now;
    conn.lastDone = now;
    completed = completed + 1;
    each.accept(new LoadGenerator.Outcome(conn.intended, conn.sentAt, now, status));
    NioConn next = conn;
    boolean replaced = false;
    if (conn.parser.closeAfter()) {
      next = replace(conn);
      replaced = true;
    }
    conn.busy = false;
    handOn(next, now);
    return !replaced;
  }

  /** The connection broke with or without a request on it: an error if there was one. */
  private void fail(NioConn conn) throws IOException {
    boolean hadRequest = conn.busy;
    conn.busy = false;
    if (hadRequest) {
      errors++;
      lastCompletion = System.nanoTime();
      completed = completed + 1;
      each.accept(new LoadGenerator.Outcome(conn.intended, conn.sentAt, lastCompletion, -1));
    }
    NioConn next = replace(conn);
    synchronized (this) {
      idle.remove(conn);
    }
    handOn(next, System.nanoTime());
  }

  private void handOn(NioConn conn, long now) {
    if (conn == null) {
      return;
    }
    if (closedLoop) {
      if (now < closedLoopEnd) {
        send(conn, now);
      }
      return;
    }
    long intended;
    synchronized (this) {
      if (backlog.isEmpty()) {
        idle.addFirst(conn);
        return;
      }
      intended = backlog.poll();
    }
    send(conn, intended);
  }

  /** A new connection in place of {@code old}, or {@code null} if the server refuses it. */
  private NioConn replace(NioConn old) {
    old.close();
    int i = conns.indexOf(old);
    try {
      NioConn conn = connect();
      if (i >= 0) {
        synchronized (this) {
          conns.set(i, conn);
        }
      }
      return conn;
    } catch (IOException | UncheckedIOException e) {
      synchronized (this) {
        conns.remove(old);
      }
      return null;
    }
  }

  private void send(NioConn conn, long intended) {
    conn.intended = intended;
    conn.sentAt = System.nanoTime();
    conn.busy = true;
    conn.parser.expectNoBody(head);
    ByteBuffer out = conn.out;
    out.rewind();
    try {
      while (out.hasRemaining()) {
        if (conn.channel.write(out) == 0) {
          Thread.onSpinWait(); // the socket's send buffer is full: rare on loopback
        }
      }
    } catch (IOException e) {
      // The selector sees the connection end and counts the error.
    }
  }

  private NioConn connect() throws IOException {
    SocketChannel channel = SocketChannel.open();
    try {
      channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
      channel.connect(address);
      channel.configureBlocking(false);
      NioConn conn = new NioConn(channel, request.duplicate());
      selector.wakeup();
      channel.register(selector, SelectionKey.OP_READ, conn);
      return conn;
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  private java.util.Map<Integer, Long> statusCounts() {
    java.util.Map<Integer, Long> counts = new java.util.TreeMap<>();
    for (int i = 0; i < statuses.length; i++) {
      if (statuses[i] > 0) {
        counts.put(i, statuses[i]);
      }
    }
    return counts;
  }

  private void close() {
    for (NioConn conn : conns) {
      conn.close();
    }
    try {
      selector.close();
    } catch (IOException ignored) {
      // Nothing to do.
    }
  }

  private static void waitUntil(long nanoTime, boolean spin) {
    while (true) {
      long left = nanoTime - System.nanoTime();
      if (left <= 0) {
        return;
      }
      if (!spin) {
        LockSupport.parkNanos(left);
      } else if (left > 70_000) {
        // Parking overshoots by some 50 µs: park until just before, spin the rest.
        LockSupport.parkNanos(left - 60_000);
      } else {
        Thread.onSpinWait();
      }
    }
  }
}
