package dev.aerun.rpc;

import dev.aerun.rpc.front.FrontHandler;
import dev.aerun.rpc.front.WaitingIsNotIdle;
import dev.aerun.rpc.runtime.ResponseSizeTracker;
import dev.aerun.rpc.runtime.RpcRuntime;
import dev.aerun.rpc.transport.RpcChannel;
import dev.aerun.rpc.transport.RpcServer;
import dev.aerun.rpc.transport.RpcTransport;
import dev.aerun.runtime.contract.AppBodyHandler;
import dev.aerun.runtime.contract.RequestLimits;
import dev.aerun.runtime.dev.DevStatusHandler;
import dev.aerun.runtime.dev.DeveloperHandler;
import dev.aerun.runtime.dev.Development;
import dev.aerun.runtime.dev.ReloadableHandler;
import dev.aerun.runtime.env.AppEnvironment;
import dev.aerun.runtime.lifecycle.DrainHandler;
import dev.aerun.runtime.lifecycle.HealthHandler;
import dev.aerun.runtime.load.BodyMemory;
import dev.aerun.runtime.load.BodyTimeoutHandler;
import dev.aerun.runtime.load.Capacity;
import dev.aerun.runtime.load.ConcurrencyLimitHandler;
import dev.aerun.runtime.logging.AccessLog;
import dev.aerun.runtime.logging.RequestTraceHandler;
import dev.aerun.runtime.security.DevLoginHandler;
import dev.aerun.runtime.server.BodyCompressionHandler;
import dev.aerun.runtime.server.HandlerChain;
import dev.aerun.runtime.server.PublicServer;
import dev.aerun.runtime.server.PublicServerSpec;
import dev.aerun.runtime.server.RuntimeServer;
import dev.aerun.runtime.webapp.Deployment;
import io.grpc.Channel;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.util.Jetty;

/**
 * Legacy RPC mode (docs/ARCHITECTURE.md, "The request paths"): a front end (the public Jetty
 * server, which buffers each request into an {@code UPRequest} and calls the runtime over gRPC) and
 * a runtime (the app on a Jetty server with no network connector, its {@code EvaluationRuntime}
 * service served on a transport), in one JVM ({@link #inOneJvm}) or as two processes ({@link
 * #frontEnd}, {@link #runtime}).
 *
 * <p>It starts in that order: the app deploys, then its service is served, then the channel to it
 * opens, and the public port opens last; a failed deployment never opens the port. It stops in
 * reverse.
 */
public final class LegacyRpcServer extends RuntimeServer {
  /**
   * The front half: the public port, forwarding every request to the runtime. Immutable.
   *
   * @param server where to listen, trust, limits and capacity (the front end enforces the
   *     concurrency limit; see {@link #port()} for port 0)
   * @param environment the app, version and service ids sent with every request
   * @param callTimeout the deadline of a call to the runtime when the request carries none of its
   *     own ({@code X-AppEngine-Timeout-Ms} from a trusted front end): a wedged runtime, or one cut
   *     off without its socket closing, must not hold the front end's slots forever
   */
  public record Front(PublicServerSpec server, AppEnvironment environment, Duration callTimeout) {
    /** The platform's longest request: 10 minutes (automatic scaling's request timeout). */
    public static final Duration DEFAULT_CALL_TIMEOUT = Duration.ofMinutes(10);

    public Front {
      Objects.requireNonNull(server, "server");
      Objects.requireNonNull(environment, "environment");
      Objects.requireNonNull(callTimeout, "callTimeout");
      if (callTimeout.isNegative() || callTimeout.isZero()) {
        throw new IllegalArgumentException("callTimeout must be positive: " + callTimeout);
      }
    }

    /** With the {@link #DEFAULT_CALL_TIMEOUT}. */
    public Front(PublicServerSpec server, AppEnvironment environment) {
      this(server, environment, DEFAULT_CALL_TIMEOUT);
    }
  }

  /**
   * The runtime half: the app on the back server. Immutable.
   *
   * @param app the app, as deployed
   * @param development what {@code --development} adds; empty in production
   * @param limits body size limits, as in HttpConnector mode; they also size the largest gRPC
   *     message
   * @param capacity the back server's request threads (the front end enforces the concurrency
   *     limit, and the runtime refuses more calls than it runs and queues)
   */
  public record Back(
      Deployment app, Optional<Development> development, RequestLimits limits, Capacity capacity) {
    public Back {
      Objects.requireNonNull(app, "app");
      Objects.requireNonNull(development, "development");
      Objects.requireNonNull(limits, "limits");
      Objects.requireNonNull(capacity, "capacity");
    }

    /** Just {@code app} ({@link Deployment#of}), in production. */
    public Back(Handler app, RequestLimits limits, Capacity capacity) {
      this(Deployment.of(app), Optional.empty(), limits, capacity);
    }
  }

  private final RpcRuntime runtime;
  private final RpcServer rpcServer;
  private final PublicServer front;

  /**
   * Both halves in this JVM, joined by {@code between}: {@link RpcTransport#inProcess()}, or a
   * socket (a TCP port 0 picks a free port) that another front end may also call.
   *
   * @param memory the JVM's budget for buffered bodies, which both halves share as they share the
   *     heap
   */
  public static LegacyRpcServer inOneJvm(
      Front front, Back back, RpcTransport between, BodyMemory memory) {
    return new LegacyRpcServer(front, back, between, memory);
  }

  /**
   * The front half alone, calling a runtime at {@code target}, in another process. The channel
   * connects lazily: a front end whose runtime is not (yet) reachable starts, and answers 503 until
   * it is.
   *
   * @param memory the JVM's budget for buffered request bodies
   */
  public static LegacyRpcServer frontEnd(Front front, RpcTransport target, BodyMemory memory) {
    return new LegacyRpcServer(front, null, target, memory);
  }

  /**
   * The runtime half alone, serving gRPC at {@code listen} for a front end in another process.
   *
   * @param memory the JVM's budget for buffered responses
   */
  public static LegacyRpcServer runtime(Back back, RpcTransport listen, BodyMemory memory) {
    return new LegacyRpcServer(null, back, listen, memory);
  }

  private LegacyRpcServer(Front front, Back back, RpcTransport transport, BodyMemory memory) {
    Objects.requireNonNull(transport, "transport");
    Objects.requireNonNull(memory, "memory");
    RequestLimits limits = back != null ? back.limits() : front.server().limits();
    int maxMessageBytes = RpcTransport.maxMessageBytes(limits);
    // The app's log lines travel with each answer only to a front end in another process: in one
    // JVM the runtime's logging printed them already, so neither end spends work on them.
    boolean appLinesCrossProcesses = front == null || back == null;
    RpcChannel channel = null;
    if (front != null) {
      channel =
          new RpcChannel(
              back != null ? () -> rpcServer().address() : () -> transport, maxMessageBytes);
    }
    RequestPaths paths =
        requestPaths(
            front,
            back,
            channel == null ? null : channel.channel(),
            appLinesCrossProcesses,
            memory);
    if (back != null) {
      runtime =
          new RpcRuntime(
              new RpcRuntime.Spec(
                  paths.back(), back.limits(), back.capacity(), appLinesCrossProcesses, memory));
      // The runtime's service hands each call to its own threads and returns at once.
      rpcServer = new RpcServer(transport, runtime.service(), maxMessageBytes, true);
      addPart(runtime);
    } else {
      runtime = null;
      rpcServer = null;
    }
    if (front != null) {
      // The request log's line is written here, where the client's status, size and latency are
      // known; the runtime side writes none.
      this.front =
          new PublicServer(
              "aerun-front",
              front.server(),
              paths.front(),
              front.server().requestLog() ? new AccessLog() : null);
      if (rpcServer != null) {
        addPart(rpcServer);
      }
      addPart(channel);
      addEntrance(this.front);
    } else {
      this.front = null;
      addEntrance(rpcServer);
    }
  }

  /** The two halves' request paths; either is null when its half runs in another process. */
  private record RequestPaths(Handler front, Handler back) {}

  /**
   * Legacy mode's request paths, the front end's then the runtime's, top to bottom; read them
   * beside HttpConnector mode's ({@code HttpConnectorServer#requestPath}), which shares their
   * handlers where the modes agree.
   */
  private static RequestPaths requestPaths(
      Front front,
      Back back,
      Channel toRuntime,
      boolean appLinesCrossProcesses,
      BodyMemory memory) {
    Handler frontPath = null;
    if (front != null) {
      PublicServerSpec serving = front.server();
      DrainHandler drain = new DrainHandler();
      frontPath =
          HandlerChain.of(
              new HealthHandler(drain),
              drain,
              // Not in HttpConnector mode: FrontHandler's failure listener would hear of an idle
              // timeout while a request waits with nothing to read or write (for a turn, for the
              // runtime's answer), which has its own bound.
              new WaitingIsNotIdle(),
              // Before any body is buffered.
              new ConcurrencyLimitHandler(serving.capacity()),
              new BodyTimeoutHandler(
                  serving.limits().requestBodyTimeout(), serving.limits().requestBodyMinRate()),
              // Responses compressed, gzip request bodies inflated, as in HttpConnector mode: here,
              // so the body limit counts the inflated bytes and the runtime sees what the app of
              // HttpConnector mode sees; the app's answer is compressed on its way to the client.
              serving.protocols().compression() ? new BodyCompressionHandler() : null,
              // The contract, the request body limit, the trace for logs and the deadline, applied
              // here to the whole buffered request: the runtime side gets them in the UPRequest.
              new FrontHandler(
                  toRuntime,
                  serving.contract(),
                  serving.limits(),
                  front.environment(),
                  appLinesCrossProcesses,
                  front.callTimeout(),
                  memory));
    }
    Handler backPath = null;
    if (back != null) {
      Optional<Development> development = back.development();
      backPath =
          HandlerChain.of(
              // The RPC connector set the request's attributes (the contract's outcome) from the
              // UPRequest; the trace publishes them for the app's log lines, as in HttpConnector
              // mode. No deadline handler: the front end's call carries the deadline.
              new RequestTraceHandler(),
              new AppBodyHandler(back.limits()),
              // Not in HttpConnector mode: tells the RPC connection that a failed response went
              // over the limit, since nothing reached the client yet.
              new ResponseSizeTracker(),
              // Development only: the developer's requests told from everyone else's, /_ah/dev and
              // the console below it, and the login page (anyone may pick a user there).
              development.map(dev -> new DeveloperHandler(dev.hosts())).orElse(null),
              development.map(dev -> new DevStatusHandler(dev.statusPage())).orElse(null),
              development.map(Development::consoleHandler).orElse(null),
              development.isPresent() ? new DevLoginHandler() : null,
              // The app's own handlers (Deployment#handlers: warm-up, static files, the API SDK,
              // the webapp); with --watch, a new deployment's replace them on each change.
              development.filter(Development::watch).isPresent()
                  ? new ReloadableHandler(Deployment::handlers, back.app())
                  : back.app().handlers());
    }
    return new RequestPaths(frontPath, backPath);
  }

  private RpcServer rpcServer() {
    return rpcServer;
  }

  /** The bound public port once started. */
  public int port() {
    PublicServer server = front;
    if (server == null || !server.isStarted()) {
      throw new IllegalStateException("not started");
    }
    return server.port();
  }

  /** Where the runtime serves gRPC once started (the bound port for a TCP port 0). */
  public RpcTransport rpcAddress() {
    if (rpcServer == null) {
      throw new IllegalStateException("the runtime runs in another process");
    }
    return rpcServer.address();
  }

  /** The runtime half, or null when it runs in another process. */
  public RpcRuntime runtime() {
    return runtime;
  }

  /** The public server, or null when the front end runs in another process. */
  public PublicServer frontServer() {
    return front;
  }

  /** The Jetty version serving requests. */
  public static String jettyVersion() {
    return Jetty.VERSION;
  }
}
