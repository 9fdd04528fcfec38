package dev.aerun.rpc.front;

import dev.aerun.runtime.env.AppEnvironment;
import dev.aerun.runtime.lifecycle.DrainHandler;
import dev.aerun.runtime.lifecycle.HealthHandler;
import dev.aerun.runtime.load.ConcurrencyLimitHandler;
import dev.aerun.runtime.logging.AccessLog;
import dev.aerun.runtime.server.PublicServer;
import dev.aerun.runtime.server.PublicServerSpec;
import io.grpc.Channel;
import java.time.Duration;
import java.util.Objects;
import org.eclipse.jetty.server.Handler;

/**
 * Legacy mode's public server: a Jetty server built exactly like HttpConnector mode's (same HTTP
 * configuration, header limit, error pages, idle timeout), so that what Jetty answers on its own
 * (400, 431, error pages) is the same in both modes, with a {@link FrontHandler} that forwards
 * every request to the runtime over {@code runtime}.
 */
public final class FrontServer extends PublicServer {
  private final Spec spec;

  /**
   * What the front server needs. Immutable.
   *
   * @param server where to listen, trust, limits and capacity (see {@link #port()} for port 0)
   * @param environment the app, version and service ids sent to the runtime
   * @param logAppLines whether to log the app's log lines that come back with each response (false
   *     when the runtime shares this JVM and already logged them)
   * @param callTimeout the deadline of a call to the runtime when the request carries none of its
   *     own ({@code X-AppEngine-Timeout-Ms} from a trusted front end): a wedged runtime, or one cut
   *     off without its socket closing, must not hold the front end's slots forever
   */
  public record Spec(
      PublicServerSpec server,
      AppEnvironment environment,
      boolean logAppLines,
      Duration callTimeout) {
    /** The platform's longest request: 10 minutes (automatic scaling's request timeout). */
    public static final Duration DEFAULT_CALL_TIMEOUT = Duration.ofMinutes(10);

    public Spec {
      Objects.requireNonNull(server, "server");
      Objects.requireNonNull(environment, "environment");
      Objects.requireNonNull(callTimeout, "callTimeout");
      if (callTimeout.isNegative() || callTimeout.isZero()) {
        throw new IllegalArgumentException("callTimeout must be positive: " + callTimeout);
      }
    }

    /** With the {@link #DEFAULT_CALL_TIMEOUT}. */
    public Spec(PublicServerSpec server, AppEnvironment environment, boolean logAppLines) {
      this(server, environment, logAppLines, DEFAULT_CALL_TIMEOUT);
    }
  }

  public FrontServer(Spec spec, Channel runtime) {
    // When the request log is on, one line per request, written here where the client's status,
    // size and latency
    // are known; the runtime side writes none.
    super(
        "aerun-front",
        spec.server(),
        requestPath(spec, runtime),
        spec.server().requestLog() ? new AccessLog() : null);
    this.spec = spec;
  }

  /**
   * The whole request path on this side: health -> draining -> waiting is not idle (a wait for a
   * turn or for the runtime is bounded on its own) -> concurrency limit (before any body is
   * buffered) -> body timeout (a slow body cannot keep its slot) -> the call to the runtime.
   */
  private static Handler requestPath(Spec spec, Channel runtime) {
    PublicServerSpec serving = spec.server();
    Handler.Wrapper bodyTimeout = serving.limits().newBodyTimeoutHandler();
    bodyTimeout.setHandler(
        new FrontHandler(
            runtime,
            serving.contract(),
            serving.limits(),
            spec.environment(),
            spec.logAppLines(),
            spec.callTimeout()));
    DrainHandler drain =
        new DrainHandler(
            new WaitingIsNotIdle(new ConcurrencyLimitHandler(serving.capacity(), bodyTimeout)));
    return new HealthHandler(drain, drain);
  }

  public Spec spec() {
    return spec;
  }
}
