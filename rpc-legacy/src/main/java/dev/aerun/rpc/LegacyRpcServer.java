package dev.aerun.rpc;

import dev.aerun.rpc.front.FrontServer;
import dev.aerun.rpc.transport.RpcTransport;
import dev.aerun.runtime.contract.ContractOptions;
import dev.aerun.runtime.contract.RequestLimits;
import dev.aerun.runtime.env.AppEnvironment;
import dev.aerun.runtime.load.Capacity;
import java.time.Duration;
import java.util.Objects;
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
   * @param host the public address to bind, or null for all interfaces
   * @param port the public port; 0 picks a free one (see {@link #port()})
   * @param app the app's handler, e.g. the webapp context
   * @param contract trust policy and header visibility
   * @param limits body and header size limits
   * @param idleTimeout how long an idle public connection stays open
   * @param capacity how many requests run at once and wait (enforced by the front), and the threads
   *     of the front and of the back server each
   * @param transport how the front end and the runtime talk; {@link RpcTransport#inProcess()} by
   *     default, a TCP port 0 picks a free loopback port
   * @param environment the app, version and service ids the front end sends
   */
  public record Spec(
      String host,
      int port,
      Handler app,
      ContractOptions contract,
      RequestLimits limits,
      Duration idleTimeout,
      Capacity capacity,
      RpcTransport transport,
      AppEnvironment environment) {
    public Spec {
      Objects.requireNonNull(app, "app");
      Objects.requireNonNull(contract, "contract");
      Objects.requireNonNull(limits, "limits");
      Objects.requireNonNull(idleTimeout, "idleTimeout");
      Objects.requireNonNull(transport, "transport");
      Objects.requireNonNull(environment, "environment");
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("port out of range: " + port);
      }
      Objects.requireNonNull(capacity, "capacity");
    }

    /**
     * A spec with the defaults: all interfaces, port 8080, trust nobody, the platform's limits, a
     * 30 s idle timeout, the capacity for this JVM's heap, the in-process transport.
     */
    public static Spec defaults(Handler app, AppEnvironment environment) {
      return new Spec(
          null,
          8080,
          app,
          ContractOptions.defaults(),
          RequestLimits.defaults(),
          Duration.ofSeconds(30),
          Capacity.forThisJvm(),
          RpcTransport.inProcess(),
          environment);
    }

    public Spec withHost(String newHost) {
      return new Spec(
          newHost, port, app, contract, limits, idleTimeout, capacity, transport, environment);
    }

    public Spec withPort(int newPort) {
      return new Spec(
          host, newPort, app, contract, limits, idleTimeout, capacity, transport, environment);
    }

    public Spec withContract(ContractOptions newContract) {
      return new Spec(
          host, port, app, newContract, limits, idleTimeout, capacity, transport, environment);
    }

    public Spec withLimits(RequestLimits newLimits) {
      return new Spec(
          host, port, app, contract, newLimits, idleTimeout, capacity, transport, environment);
    }

    public Spec withIdleTimeout(Duration newIdleTimeout) {
      return new Spec(
          host, port, app, contract, limits, newIdleTimeout, capacity, transport, environment);
    }

    public Spec withCapacity(Capacity newCapacity) {
      return new Spec(
          host, port, app, contract, limits, idleTimeout, newCapacity, transport, environment);
    }

    public Spec withTransport(RpcTransport newTransport) {
      return new Spec(
          host, port, app, contract, limits, idleTimeout, capacity, newTransport, environment);
    }

    public Spec withEnvironment(AppEnvironment newEnvironment) {
      return new Spec(
          host, port, app, contract, limits, idleTimeout, capacity, transport, newEnvironment);
    }
  }

  public LegacyRpcServer(Spec spec) {
    this.spec = spec;
    this.runtime =
        new LegacyRpcRuntimeServer(
            new LegacyRpcRuntimeServer.Spec(
                spec.app(),
                spec.limits(),
                spec.capacity(),
                spec.transport(),
                APP_LINES_TO_THE_FRONT));
  }

  /** Deploys the app, serves gRPC, then opens the public port; undoes it all if a step fails. */
  public void start() throws Exception {
    runtime.start();
    LegacyRpcFront starting =
        new LegacyRpcFront(
            new LegacyRpcFront.Spec(
                new FrontServer.Spec(
                    spec.host(),
                    spec.port(),
                    spec.contract(),
                    spec.limits(),
                    spec.idleTimeout(),
                    spec.capacity(),
                    spec.environment(),
                    APP_LINES_TO_THE_FRONT),
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

  /** Blocks until the public server has stopped. */
  public void join() throws InterruptedException {
    LegacyRpcFront running = front;
    if (running != null) {
      running.join();
    }
  }

  /** The bound public port once started. */
  public int port() {
    LegacyRpcFront running = front;
    if (running == null) {
      throw new IllegalStateException("not started");
    }
    return running.port();
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
