package dev.aerun.bench;

import dev.aerun.bench.LoadGenerator.Load;
import dev.aerun.bench.LoadGenerator.RateRun;
import dev.aerun.testing.ResponseParser;
import java.io.Closeable;
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
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.IntStream;
import org.HdrHistogram.Histogram;

/**
 * The load generator's engine: keep-alive HTTP/1.1 connections to one address, served by one
 * selector thread, requests encoded once into a direct buffer, responses read only as far as their
 * framing ({@link ResponseParser}). One run per instance, closed after it.
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
final class NioLoad implements AutoCloseable {
  private static final long WAIT_FOR_ANSWERS_NANOS = TimeUnit.SECONDS.toNanos(25);

  /** A connection idle at least this long is checked for a close by the server before use. */
  private static final long IDLE_CHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

  /** At or below this rate the schedule is kept by spinning the last 60 µs before each send. */
  private static final double SPIN_RATE_LIMIT = 1000;

  /** One keep-alive connection. */
  private static final class Conn {
    final SocketChannel channel;
    final ByteBuffer out;
    final ResponseParser parser = new ResponseParser();
    long intended;
    volatile boolean busy;
    volatile long lastDone = System.nanoTime(); // when it last finished a response (or opened)

    Conn(SocketChannel channel, ByteBuffer out) {
      this.channel = channel;
      this.out = out;
    }
  }

  private final InetSocketAddress address;
  private final ByteBuffer request;
  private final Selector selector;
  private final ByteBuffer readBuffer = ByteBuffer.allocateDirect(64 * 1024);
  private final List<Conn> conns = new ArrayList<>();
  private final Histogram latency = new Histogram(LoadGenerator.HIGHEST_MICROS, 3);
  private final long[] statuses = new long[600];

  // Guarded by this: the hand-off of connections between the sender and the selector thread, and
  // the requests of the schedule that found none idle. Those are always consecutive (a connection
  // goes back to the idle ones only when none waits), so a range, not a queue: nothing per request.
  private final ArrayDeque<Conn> idle = new ArrayDeque<>();
  private long waitingFrom; // the first waiting request's number in the schedule
  private int waiting;

  // The open loop's schedule: request i is due at scheduleStart + i * periodNanos.
  private long scheduleStart;
  private double periodNanos;

  // Written by the selector thread only.
  private long ok;
  private long errors;
  private volatile long completed;
  private volatile long lastCompletion;
  private volatile boolean stop;
  private volatile Throwable selectorFailure;

  // Closed loop only.
  private boolean closedLoop;
  private long closedLoopEnd;

  NioLoad(InetSocketAddress address, Load load, int connections) throws IOException {
    this.address = address;
    this.request = encode(address, load);
    this.selector = Selector.open();
    for (int i = 0; i < connections; i++) {
      conns.add(connect());
    }
  }

  /** The request as bytes on the wire, once. */
  static ByteBuffer encode(InetSocketAddress address, Load load) {
    byte[] body = load.body() == null ? new byte[0] : load.body();
    String accept = load.acceptEncoding();
    byte[] head =
        String.format(
                "%s %s HTTP/1.1\r\nHost: %s:%d\r\nUser-Agent: aerun-bench\r\n%s%s\r\n",
                load.method(),
                load.path(),
                address.getHostString(),
                address.getPort(),
                accept == null ? "" : "Accept-Encoding: " + accept + "\r\n",
                load.body() == null
                    ? ""
                    : "Content-Type: application/octet-stream\r\nContent-Length: "
                        + body.length
                        + "\r\n")
            .getBytes(StandardCharsets.US_ASCII);
    ByteBuffer buffer = ByteBuffer.allocateDirect(head.length + body.length).put(head).put(body);
    return buffer.flip().asReadOnlyBuffer();
  }

  /**
   * A run of {@code duration}: open loop at {@code rate} ({@link LoadGenerator#openLoop}), or
   * closed loop where {@code rate} is NaN ({@link LoadGenerator#closedLoop}).
   */
  RateRun run(double rate, Duration duration) {
    closedLoop = Double.isNaN(rate);
    Histogram lag = new Histogram(LoadGenerator.HIGHEST_MICROS, 3);
    long count = closedLoop ? 0 : Math.max(1, Math.round(rate * duration.toNanos() / 1e9));
    periodNanos = 1e9 / rate;
    boolean spin = rate <= SPIN_RATE_LIMIT;
    long cpuBefore = CpuClock.processCpuNanos();
    long start = System.nanoTime(); // a closed loop's first requests go out now
    closedLoopEnd = start + duration.toNanos();
    if (closedLoop) {
      conns.forEach(conn -> send(conn, System.nanoTime()));
    } else {
      idle.addAll(conns);
    }
    Thread selectorThread = new Thread(this::selectLoop, "bench-load-selector");
    selectorThread.setDaemon(true);
    selectorThread.start();
    // An open loop's schedule starts once the selector runs, a little ahead.
    start = closedLoop ? start : System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(2);
    scheduleStart = start;
    long sent = 0;
    for (; sent < count && selectorFailure == null; sent++) {
      long intended = start + (long) (sent * periodNanos);
      waitUntil(intended, spin);
      lag.recordValue(
          Math.min(LoadGenerator.HIGHEST_MICROS, (System.nanoTime() - intended) / 1000));
      Conn conn = takeIdle(sent);
      if (conn != null) {
        send(conn, intended);
      }
    }
    awaitAnswers(sent);
    stop = true;
    selector.wakeup();
    try {
      selectorThread.join(TimeUnit.SECONDS.toMillis(10));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    long cpu = CpuClock.processCpuNanos() - cpuBefore;
    double seconds = (Math.max(lastCompletion, start + 1) - start) / 1e9;
    if (closedLoop) { // as many sent as answered, none late
      sent = count = ok + errors;
    }
    return new RateRun(
        latency,
        lag,
        rate,
        sent,
        ok,
        errors + (sent - completed) + (count - sent), // unanswered and never sent count as errors
        ok / seconds,
        lag.getMaxValue(),
        statusCounts(),
        cpu);
  }

  /**
   * An idle connection the server has not closed, or {@code null} with request {@code number} of
   * the schedule left waiting for the next one that frees up. A server closes a keep-alive
   * connection that stayed idle past its idle timeout; the selector replaces it once it reads the
   * close, but a request sent before that would meet a connection the server had already closed
   * (the client's mistake, not a server failure), so one idle for a while is read first: a closed
   * one has something to say.
   */
  private Conn takeIdle(long number) {
    while (true) {
      Conn conn;
      synchronized (this) {
        conn = idle.pollFirst();
        if (conn == null) {
          waitingFrom = waiting++ == 0 ? number : waitingFrom;
          return null;
        }
      }
      if (System.nanoTime() - conn.lastDone < IDLE_CHECK_NANOS || !closedByServer(conn)) {
        return conn;
      }
      // Left to the selector, which sees the same end of stream and replaces it.
    }
  }

  private static boolean closedByServer(Conn conn) {
    try {
      return conn.channel.read(ByteBuffer.allocate(1)) != 0;
    } catch (IOException e) {
      return true;
    }
  }

  /** Waits until {@code sent} answers are in (closed loop: every connection done), or the bound. */
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

  private void selectLoop() {
    try {
      while (!stop) {
        selector.select(100);
        for (Iterator<SelectionKey> keys = selector.selectedKeys().iterator(); keys.hasNext(); ) {
          SelectionKey key = keys.next();
          keys.remove();
          if (key.isValid() && key.isReadable()) {
            read((Conn) key.attachment());
          }
        }
      }
    } catch (Throwable e) {
      selectorFailure = e;
    }
  }

  private void read(Conn conn) throws IOException {
    readBuffer.clear();
    int n;
    try {
      n = conn.channel.read(readBuffer);
    } catch (IOException e) {
      n = -1;
    }
    if (n < 0) {
      if (conn.busy && conn.parser.readsUntilClose()) {
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
      if (!done || !complete(conn, conn.parser.status())) {
        return;
      }
    }
  }

  /**
   * A response is complete: records it, then gives the connection its next request (the one that
   * waited longest, or in closed loop a new one) or back to the idle ones. Returns {@code false}
   * when the connection was replaced.
   */
  private boolean complete(Conn conn, int status) throws IOException {
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
    boolean replaced = conn.parser.closeAfter();
    Conn next = replaced ? replace(conn) : conn;
    conn.busy = false;
    handOn(next, now);
    return !replaced;
  }

  /** The connection broke with or without a request on it: an error if there was one. */
  private void fail(Conn conn) throws IOException {
    if (conn.busy) {
      errors++;
      lastCompletion = System.nanoTime();
      completed = completed + 1;
    }
    conn.busy = false;
    Conn next = replace(conn);
    synchronized (this) {
      idle.remove(conn);
    }
    handOn(next, System.nanoTime());
  }

  private void handOn(Conn conn, long now) {
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
      if (waiting == 0) {
        idle.addFirst(conn);
        return;
      }
      waiting--;
      intended = scheduleStart + (long) (waitingFrom++ * periodNanos);
    }
    send(conn, intended);
  }

  /** A new connection in place of {@code old}, or {@code null} if the server refuses it. */
  private Conn replace(Conn old) {
    closeQuietly(old.channel);
    int i = conns.indexOf(old);
    try {
      Conn conn = connect();
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

  private void send(Conn conn, long intended) {
    conn.intended = intended;
    conn.busy = true;
    ByteBuffer out = conn.out.rewind();
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

  private Conn connect() throws IOException {
    SocketChannel channel = SocketChannel.open();
    try {
      channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
      channel.connect(address);
      channel.configureBlocking(false);
      Conn conn = new Conn(channel, request.duplicate());
      selector.wakeup();
      channel.register(selector, SelectionKey.OP_READ, conn);
      return conn;
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  private Map<Integer, Long> statusCounts() {
    Map<Integer, Long> counts = new TreeMap<>();
    IntStream.range(0, statuses.length)
        .filter(i -> statuses[i] > 0)
        .forEach(i -> counts.put(i, statuses[i]));
    return counts;
  }

  @Override
  public void close() {
    conns.forEach(conn -> closeQuietly(conn.channel));
    closeQuietly(selector);
  }

  private static void closeQuietly(Closeable closeable) {
    try {
      closeable.close();
    } catch (IOException ignored) {
      // Closing.
    }
  }

  private static void waitUntil(long nanoTime, boolean spin) {
    for (long left; (left = nanoTime - System.nanoTime()) > 0; ) {
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
