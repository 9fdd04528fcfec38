package dev.aerun.rpc.transport;

import dev.aerun.runtime.contract.RequestLimits;
import io.grpc.BindableService;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.Epoll;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollDomainSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.nio.NioEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.socket.nio.NioServerSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.socket.nio.NioSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.unix.DomainSocketAddress;
import io.grpc.netty.shaded.io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.util.component.LifeCycle;

/**
 * How legacy mode's front server and runtime talk gRPC (docs/ARCHITECTURE.md, "The legacy
 * protocol"). Immutable; {@link #parse} reads the forms users write:
 *
 * <ul>
 *   <li>{@code inprocess}: both in one JVM, through grpc-inprocess (no sockets, no serialization).
 *       Each parse gives a new, unique name; {@code inprocess:NAME} names one explicitly.
 *   <li>{@code tcp:HOST:PORT}: plaintext HTTP/2 over TCP ({@code tcp:[::1]:PORT} for IPv6); port 0
 *       binds an ephemeral port, see {@link RpcServer#address()}. Nothing is encrypted or
 *       authenticated: keep it on loopback or a private network.
 *   <li>{@code unix:PATH}: plaintext HTTP/2 over a Unix domain socket, through the epoll transport
 *       bundled with grpc-netty-shaded; only where {@link #unixSocketsSupported()} (Linux on x86_64
 *       and aarch64).
 * </ul>
 *
 * <p>{@link #startServer} and {@link #openChannel} build the two ends. Socket transports get event
 * loops of their own, shut down with the server or channel, so nothing lingers after {@code
 * close()}.
 */
public final class RpcTransport {
  /** The kinds of transport. */
  public enum Kind {
    INPROCESS,
    TCP,
    UNIX
  }

  /** The forms {@link #parse} accepts, for error messages and usage texts. */
  public static final String FORMS = "inprocess, tcp:HOST:PORT or unix:PATH";

  /**
   * The room a message needs beyond its body: request line, headers (at most 64 KiB by default) and
   * the app's log lines.
   */
  static final int MESSAGE_OVERHEAD_BYTES = 16 * 1024 * 1024;

  /**
   * How often each end of a socket transport pings an idle connection, and how long it waits for
   * the answer: a runtime that vanished without closing its socket (a crashed host, a dropped
   * route) is noticed within a minute, and calls on it fail instead of waiting forever.
   */
  static final Duration KEEP_ALIVE_TIME = Duration.ofSeconds(30);

  static final Duration KEEP_ALIVE_TIMEOUT = Duration.ofSeconds(10);

  /** How long closing a server or channel lets calls, then event loops, finish. */
  static final long GRACE_SECONDS = 5;

  private final Kind kind;
  private final String name;
  private final String host;
  private final int port;
  private final Path path;

  private RpcTransport(Kind kind, String name, String host, int port, Path path) {
    this.kind = kind;
    this.name = name;
    this.host = host;
    this.port = port;
    this.path = path;
  }

  /** An in-process transport with a fresh, unique name. */
  public static RpcTransport inProcess() {
    return inProcess(InProcessServerBuilder.generateName());
  }

  /** An in-process transport with the given name. */
  public static RpcTransport inProcess(String name) {
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException("an in-process transport needs a name");
    }
    return new RpcTransport(Kind.INPROCESS, name, null, -1, null);
  }

  /** TCP to {@code host:port}; port 0 is an ephemeral port when serving. */
  public static RpcTransport tcp(String host, int port) {
    if (host == null || host.isEmpty()) {
      throw new IllegalArgumentException("tcp: needs a host, as in tcp:127.0.0.1:7000");
    }
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("tcp: port must be 0-65535, not " + port);
    }
    return new RpcTransport(Kind.TCP, null, host, port, null);
  }

  /** A Unix domain socket at {@code path}. */
  public static RpcTransport unix(Path path) {
    Objects.requireNonNull(path, "path");
    if (path.toString().isEmpty()) {
      throw new IllegalArgumentException("unix: needs a socket path, as in unix:/tmp/aerun.sock");
    }
    return new RpcTransport(Kind.UNIX, null, null, -1, path);
  }

  /**
   * Reads {@code inprocess}, {@code inprocess:NAME}, {@code tcp:HOST:PORT} or {@code unix:PATH}.
   *
   * @throws IllegalArgumentException naming what is wrong and the accepted forms
   */
  public static RpcTransport parse(String value) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException("empty RPC address: expected " + FORMS);
    }
    String text = value.trim();
    int colon = text.indexOf(':');
    String scheme = (colon < 0 ? text : text.substring(0, colon)).toLowerCase(Locale.ROOT);
    String rest = colon < 0 ? null : text.substring(colon + 1);
    switch (scheme) {
      case "inprocess":
        return rest == null ? inProcess() : inProcess(rest);
      case "tcp":
        return parseTcp(text, rest);
      case "unix":
        if (rest == null || rest.isEmpty()) {
          throw new IllegalArgumentException(
              "'" + text + "' names no socket path: expected unix:PATH");
        }
        return unix(Path.of(rest));
      default:
        throw new IllegalArgumentException(
            "'" + text + "' is not an RPC address: expected " + FORMS);
    }
  }

  private static RpcTransport parseTcp(String text, String rest) {
    String bad = "'" + text + "' is not a TCP address: expected tcp:HOST:PORT";
    if (rest == null || rest.isEmpty()) {
      throw new IllegalArgumentException(bad);
    }
    String host;
    String portText;
    if (rest.startsWith("[")) {
      int close = rest.indexOf(']');
      if (close < 0 || close + 1 >= rest.length() || rest.charAt(close + 1) != ':') {
        throw new IllegalArgumentException(bad);
      }
      host = rest.substring(1, close);
      portText = rest.substring(close + 2);
    } else {
      int last = rest.lastIndexOf(':');
      if (last < 0 || rest.indexOf(':') != last) {
        throw new IllegalArgumentException(bad + " (write an IPv6 host in brackets)");
      }
      host = rest.substring(0, last);
      portText = rest.substring(last + 1);
    }
    if (host.isEmpty()) {
      throw new IllegalArgumentException(bad);
    }
    int port;
    try {
      port = Integer.parseInt(portText);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(bad + " (the port must be a number 0-65535)", e);
    }
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException(bad + " (the port must be a number 0-65535)");
    }
    return tcp(host, port);
  }

  /**
   * Whether Unix domain sockets work here: the bundled epoll transport loads only on Linux (x86_64
   * and aarch64).
   */
  public static boolean unixSocketsSupported() {
    return Epoll.isAvailable();
  }

  /**
   * The largest gRPC message the ends accept for these limits: the body limit plus room for headers
   * and log lines, or as much as protobuf allows when a limit is lifted. gRPC's default of 4 MiB
   * would refuse most large bodies.
   */
  public static int maxMessageBytes(RequestLimits limits) {
    long request = limits.requestBodyLimit();
    long response = limits.effectiveResponseBodyLimit();
    if (request < 0 || response < 0) {
      return Integer.MAX_VALUE;
    }
    long needed = Math.max(request, response) + MESSAGE_OVERHEAD_BYTES;
    return (int) Math.min(Integer.MAX_VALUE, needed);
  }

  public Kind kind() {
    return kind;
  }

  /** The in-process name; null for other kinds. */
  public String name() {
    return name;
  }

  /** The TCP host; null for other kinds. */
  public String host() {
    return host;
  }

  /** The TCP port (0 = ephemeral); -1 for other kinds. */
  public int port() {
    return port;
  }

  /** The Unix socket's path; null for other kinds. */
  public Path path() {
    return path;
  }

  /** Whether this transport crosses a socket, so the front end and runtime may be two processes. */
  public boolean isSocket() {
    return kind != Kind.INPROCESS;
  }

  /** The short name the start line shows: {@code inprocess}, {@code tcp} or {@code unix}. */
  public String kindName() {
    return kind.name().toLowerCase(Locale.ROOT);
  }

  /**
   * Starts a gRPC server with {@code service} on this transport; the service runs on gRPC's default
   * executor, so it may block.
   *
   * @param maxMessageBytes the largest request message accepted, see {@link #maxMessageBytes}
   * @throws IOException when the address cannot be bound, or Unix sockets are not supported
   */
  public RpcServer startServer(BindableService service, int maxMessageBytes) throws IOException {
    return startServer(service, maxMessageBytes, false);
  }

  /**
   * Starts a gRPC server with {@code service} on this transport: a started {@link RpcServer}.
   *
   * @param maxMessageBytes the largest request message accepted, see {@link #maxMessageBytes}
   * @param serviceNeverBlocks see {@link RpcServer#RpcServer}
   * @throws IOException when the address cannot be bound, or Unix sockets are not supported
   */
  public RpcServer startServer(
      BindableService service, int maxMessageBytes, boolean serviceNeverBlocks) throws IOException {
    RpcServer server = new RpcServer(this, service, maxMessageBytes, serviceNeverBlocks);
    start(server);
    return server;
  }

  /** A bound and started gRPC server, with the event loops it owns. */
  record Bound(Server server, RpcTransport address, List<EventLoopGroup> groups) {}

  /** Binds and starts a gRPC server with {@code service} on this transport. */
  Bound bind(BindableService service, int maxMessageBytes, boolean serviceNeverBlocks)
      throws IOException {
    switch (kind) {
      case INPROCESS -> {
        InProcessServerBuilder builder =
            InProcessServerBuilder.forName(name)
                .addService(service)
                .maxInboundMessageSize(maxMessageBytes);
        if (serviceNeverBlocks) {
          builder.directExecutor();
        }
        return new Bound(builder.build().start(), this, List.of());
      }
      case TCP -> {
        EventLoopGroup boss = new NioEventLoopGroup(1, threads("aerun-grpc-accept"));
        EventLoopGroup workers = new NioEventLoopGroup(0, threads("aerun-grpc-server"));
        NettyServerBuilder builder =
            NettyServerBuilder.forAddress(new InetSocketAddress(host, port))
                .channelType(NioServerSocketChannel.class);
        Server server =
            startNetty(builder, service, maxMessageBytes, serviceNeverBlocks, boss, workers);
        return new Bound(server, tcp(host, server.getPort()), List.of(boss, workers));
      }
      case UNIX -> {
        requireUnixSockets();
        EventLoopGroup boss = new EpollEventLoopGroup(1, threads("aerun-grpc-accept"));
        EventLoopGroup workers = new EpollEventLoopGroup(0, threads("aerun-grpc-server"));
        NettyServerBuilder builder =
            NettyServerBuilder.forAddress(new DomainSocketAddress(path.toString()))
                .channelType(EpollServerDomainSocketChannel.class);
        Server server =
            startNetty(builder, service, maxMessageBytes, serviceNeverBlocks, boss, workers);
        return new Bound(server, this, List.of(boss, workers));
      }
      default -> throw new AssertionError(kind);
    }
  }

  private static Server startNetty(
      NettyServerBuilder builder,
      BindableService service,
      int maxMessageBytes,
      boolean serviceNeverBlocks,
      EventLoopGroup boss,
      EventLoopGroup workers)
      throws IOException {
    if (serviceNeverBlocks) {
      builder.directExecutor();
    }
    try {
      return builder
          .keepAliveTime(KEEP_ALIVE_TIME.toNanos(), TimeUnit.NANOSECONDS)
          .keepAliveTimeout(KEEP_ALIVE_TIMEOUT.toNanos(), TimeUnit.NANOSECONDS)
          // The front end pings as often: allow it, even between calls.
          .permitKeepAliveTime(KEEP_ALIVE_TIME.toNanos(), TimeUnit.NANOSECONDS)
          .permitKeepAliveWithoutCalls(true)
          .bossEventLoopGroup(boss)
          .workerEventLoopGroup(workers)
          .addService(service)
          .maxInboundMessageSize(maxMessageBytes)
          .build()
          .start();
    } catch (IOException | RuntimeException e) {
      shutdownGroups(List.of(boss, workers));
      throw e;
    }
  }

  /**
   * Opens a channel to a server on this transport: a started {@link RpcChannel}. Connecting is
   * lazy: a server that is not there (yet) makes calls fail with {@code UNAVAILABLE}, not this
   * method.
   *
   * @param maxMessageBytes the largest response message accepted, see {@link #maxMessageBytes}
   * @throws IOException when Unix sockets are not supported here
   */
  public RpcChannel openChannel(int maxMessageBytes) throws IOException {
    RpcChannel channel = new RpcChannel(() -> this, maxMessageBytes);
    start(channel);
    return channel;
  }

  /**
   * An open channel, the event loops it owns, and for a socket the scheduler that nudges it to
   * reconnect (see {@link RpcChannel}); null for in-process.
   */
  record Connected(
      ManagedChannel channel, List<EventLoopGroup> groups, ScheduledExecutorService scheduler) {}

  /**
   * Opens a channel to a server on this transport. Responses are delivered on the transport's own
   * thread ({@code directExecutor}): the front server's callbacks only hand bytes to Jetty, which
   * never blocks.
   */
  Connected connect(int maxMessageBytes) throws IOException {
    switch (kind) {
      case INPROCESS -> {
        ManagedChannel channel =
            InProcessChannelBuilder.forName(name)
                .directExecutor()
                .maxInboundMessageSize(maxMessageBytes)
                .build();
        return new Connected(channel, List.of(), null);
      }
      case TCP -> {
        if (port == 0) {
          throw new IllegalArgumentException("cannot connect to port 0: " + this);
        }
        EventLoopGroup group = new NioEventLoopGroup(1, threads("aerun-grpc-client"));
        NettyChannelBuilder builder =
            NettyChannelBuilder.forAddress(new InetSocketAddress(host, port))
                .channelType(NioSocketChannel.class, InetSocketAddress.class);
        return new Connected(buildNetty(builder, group, maxMessageBytes), List.of(group), group);
      }
      case UNIX -> {
        requireUnixSockets();
        EventLoopGroup group = new EpollEventLoopGroup(1, threads("aerun-grpc-client"));
        NettyChannelBuilder builder =
            NettyChannelBuilder.forAddress(new DomainSocketAddress(path.toString()))
                .channelType(EpollDomainSocketChannel.class, DomainSocketAddress.class);
        return new Connected(buildNetty(builder, group, maxMessageBytes), List.of(group), group);
      }
      default -> throw new AssertionError(kind);
    }
  }

  /** Starts {@code part}, with the failure of its start as it was. */
  private static void start(LifeCycle part) throws IOException {
    try {
      part.start();
    } catch (IOException | RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException(e);
    }
  }

  /** A gRPC server's or channel's wait for its calls to end. */
  interface Termination {
    boolean await(long time, TimeUnit unit) throws InterruptedException;
  }

  /**
   * Shuts a gRPC server or channel down: lets running calls finish for a few seconds, cancels what
   * is left, then stops its event loops.
   */
  static void shutDown(
      Runnable shutdown,
      Runnable shutdownNow,
      Termination termination,
      List<EventLoopGroup> groups) {
    shutdown.run();
    try {
      if (!termination.await(GRACE_SECONDS, TimeUnit.SECONDS)) {
        shutdownNow.run();
        termination.await(GRACE_SECONDS, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      shutdownNow.run();
      Thread.currentThread().interrupt();
    }
    shutdownGroups(groups);
  }

  /** Stops {@code part}, for an {@link AutoCloseable#close()} that throws nothing checked. */
  static void stop(LifeCycle part) {
    try {
      part.stop();
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** Shuts {@code groups} down, waiting a few seconds for each. */
  static void shutdownGroups(List<EventLoopGroup> groups) {
    for (EventLoopGroup group : groups) {
      group.shutdownGracefully(0, GRACE_SECONDS, TimeUnit.SECONDS);
    }
    for (EventLoopGroup group : groups) {
      group.terminationFuture().awaitUninterruptibly(2 * GRACE_SECONDS, TimeUnit.SECONDS);
    }
  }

  private static ManagedChannel buildNetty(
      NettyChannelBuilder builder, EventLoopGroup group, int maxMessageBytes) {
    return builder
        .eventLoopGroup(group)
        .keepAliveTime(KEEP_ALIVE_TIME.toNanos(), TimeUnit.NANOSECONDS)
        .keepAliveTimeout(KEEP_ALIVE_TIMEOUT.toNanos(), TimeUnit.NANOSECONDS)
        .keepAliveWithoutCalls(true)
        .usePlaintext()
        .directExecutor()
        .maxInboundMessageSize(maxMessageBytes)
        .build();
  }

  private static void requireUnixSockets() throws IOException {
    KeepAliveWarnings.silence();
    if (!Epoll.isAvailable()) {
      Throwable cause = Epoll.unavailabilityCause();
      throw new IOException(
          "Unix domain sockets are not supported on this OS/JVM: use tcp:HOST:PORT"
              + (cause == null ? "" : " (" + cause + ")"),
          cause);
    }
  }

  private static DefaultThreadFactory threads(String name) {
    // Daemon threads: a forgotten close() must not keep the JVM alive.
    return new DefaultThreadFactory(name, true);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RpcTransport t
        && kind == t.kind
        && Objects.equals(name, t.name)
        && Objects.equals(host, t.host)
        && port == t.port
        && Objects.equals(path, t.path);
  }

  @Override
  public int hashCode() {
    return Objects.hash(kind, name, host, port, path);
  }

  /** The form {@link #parse} reads back: {@code inprocess:NAME}, {@code tcp:HOST:PORT}, … */
  @Override
  public String toString() {
    return switch (kind) {
      case INPROCESS -> "inprocess:" + name;
      case TCP -> "tcp:" + (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
      case UNIX -> "unix:" + path;
    };
  }
}
