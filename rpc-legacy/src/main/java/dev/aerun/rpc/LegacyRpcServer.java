package dev.aerun.rpc;

import dev.aerun.rpc.front.FrontServer;
import dev.aerun.rpc.transport.RpcTransport;
import dev.aerun.runtime.env.AppEnvironment;
import dev.aerun.runtime.server.PublicServerSpec;
import java.time.Duration;
import java.util.Objects;
import java.util.function.UnaryOperator;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.util.Jetty;

/**
 * Legacy RPC mode in one JVM (DESIGN §5): the runtime ({@link LegacyRpcRuntimeServer}: the app on
 * the back server, its gRPC service on the chosen transport) and the front end ({@link
 * LegacyRpcFront}: the public Jetty server and a channel to the runtime).
 *
 * <p>{@link #start()} deploys the app first, then serves gRPC, then opens the public port last: a
 * failed deployment never opens the port. {@link #stop()} goes in reverse.
 */
public final class LegacyRpcServer {
  /**
   * Whether the app's log lines travel with each answer for the front end to log: the runtime
   * shares this JVM and its logging prints them already, so neither end spends work on them.
   */
  private static final boolean APP_LINES_TO_THE_FRONT = false;

  private final Spec spec;
  private final LegacyRpcRuntimeServer runtime;
  private volatile LegacyRpcFront front;

  /**
   * What to serve and how. Immutable.
   *
   * @param app the app's handler, e.g. the webapp context
   * @param server the public server's address, trust, limits and capacity (the front enforces the
   *     concurrency limit; the back server gets as many threads); see {@link #port()} for port 0
   * @param transport how the front end and the runtime talk; {@link RpcTransport#inProcess()} by
   *     default, a TCP port 0 picks a free loopback port
   * @param environment the app, version and service ids the front end sends
   */
  public record Spec(
      Handler app, PublicServerSpec server, RpcTransport transport, AppEnvironment environment) {
    public Spec {
      Objects.requireNonNull(app, "app");
      Objects.requireNonNull(server, "server");
      Objects.requireNonNull(transport, "transport");
      Objects.requireNonNull(environment, "environment");
    }

    /** The defaults of {@link PublicServerSpec#defaults()}, over the in-process transport. */
    public static Spec defaults(Handler app, AppEnvironment environment) {
      return new Spec(app, PublicServerSpec.defaults(), RpcTransport.inProcess(), environment);
    }

    /** This spec with {@code change} applied to its public server's settings. */
    public Spec withServer(UnaryOperator<PublicServerSpec> change) {
      return new Spec(app, change.apply(server), transport, environment);
    }

    public Spec withTransport(RpcTransport newTransport) {
      return new Spec(app, server, newTransport, environment);
    }
  }

  public LegacyRpcServer(Spec spec) {
    this.spec = spec;
    this.runtime =
        new LegacyRpcRuntimeServer(
            new LegacyRpcRuntimeServer.Spec(
                spec.app(),
                spec.server().limits(),
                spec.server().capacity(),
                spec.transport(),
                APP_LINES_TO_THE_FRONT));
  }

  /** Deploys the app, serves gRPC, then opens the public port; undoes it all if a step fails. */
  public void start() throws Exception {
    runtime.start();
    LegacyRpcFront starting =
        new LegacyRpcFront(
            new LegacyRpcFront.Spec(
                new FrontServer.Spec(spec.server(), spec.environment(), APP_LINES_TO_THE_FRONT),
                runtime.address()));
    try {
      starting.start();
    } catch (Exception | Error e) {
      try {
        runtime.stop();
      } catch (Exception suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
    front = starting;
  }

  /** Closes the public port, then stops the gRPC server and the app. */
  public void stop() throws Exception {
    LegacyRpcFront running = front;
    front = null;
    try {
      if (running != null) {
        running.stop();
      }
    } finally {
      runtime.stop();
    }
  }

  /**
   * Drains the front server: the requests in flight finish through the runtime, for up to {@code
   * grace}. {@link #stop()} next stops the front server, then the runtime.
   */
  public boolean drain(Duration grace) throws InterruptedException {
    LegacyRpcFront running = front;
    return running == null || running.drain(grace);
  }

  /** Blocks until the public server has stopped; at once if it never started. */
  public void join() throws InterruptedException {
    LegacyRpcFront running = front;
    if (running != null) {
      running.join();
    }
  }

  /** The bound public port once started. */
  public int port() {
    return started().port();
  }

  /** The front end, once started. */
  private LegacyRpcFront started() {
    LegacyRpcFront running = front;
    if (running == null) {
      throw new IllegalStateException("not started");
    }
    return running;
  }

  /** Where the runtime serves gRPC once started (the bound port for a TCP port 0). */
  public RpcTransport rpcAddress() {
    return runtime.address();
  }

  public Spec spec() {
    return spec;
  }

  /** The Jetty version serving requests. */
  public static String jettyVersion() {
    return Jetty.VERSION;
  }
}
