package dev.aerun.rpc.transport;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ConnectivityState;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import java.util.Objects;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.eclipse.jetty.util.component.AbstractLifeCycle;

/**
 * A gRPC channel to a server on an {@link RpcTransport}, and the event loop it owns: opened when it
 * starts, closed when it stops. {@link #channel()} can be handed out before: its calls go to the
 * channel opened at start.
 */
public final class RpcChannel extends AbstractLifeCycle implements AutoCloseable {
  /**
   * How soon a socket channel that failed to connect tries again. gRPC's own backoff grows to two
   * minutes (already about 8 s after a few failures): a front end started before its runtime, or
   * whose runtime restarted, would answer 503 long after the runtime serves again.
   */
  static final long RECONNECT_MILLIS = 250;

  private final Supplier<RpcTransport> target;
  private final int maxMessageBytes;
  private final Channel calls = new Calls();
  private volatile RpcTransport opened;
  private volatile RpcTransport.Connected connected;
  private volatile Future<?> nudge;

  /**
   * A channel, not opened yet, to whatever {@code target} gives when it starts (the address of a
   * server started before it, whose TCP port 0 is then bound).
   *
   * @param maxMessageBytes the largest response message accepted, see {@link
   *     RpcTransport#maxMessageBytes}
   */
  public RpcChannel(Supplier<RpcTransport> target, int maxMessageBytes) {
    this.target = Objects.requireNonNull(target, "target");
    this.maxMessageBytes = maxMessageBytes;
  }

  /**
   * Opens the channel. Connecting is lazy: a server that is not there (yet) makes calls fail with
   * {@code UNAVAILABLE}, not this. A socket channel keeps trying to connect every {@value
   * #RECONNECT_MILLIS} ms while it cannot (rather than after gRPC's growing backoff).
   */
  @Override
  protected void doStart() throws Exception {
    RpcTransport to = target.get();
    RpcTransport.Connected open = to.connect(maxMessageBytes);
    if (open.scheduler() != null) {
      ManagedChannel channel = open.channel();
      nudge =
          open.scheduler()
              .scheduleWithFixedDelay(
                  () -> nudge(channel), RECONNECT_MILLIS, RECONNECT_MILLIS, TimeUnit.MILLISECONDS);
    }
    opened = to;
    connected = open;
  }

  /**
   * Skips the rest of the backoff of a channel that failed to connect. Looked at on a schedule, not
   * on state changes: gRPC's pick-first policy stays in {@code TRANSIENT_FAILURE} while it retries,
   * so after the first failure there is no change to wait for.
   */
  private static void nudge(ManagedChannel channel) {
    if (channel.getState(false) == ConnectivityState.TRANSIENT_FAILURE) {
      channel.resetConnectBackoff();
    }
  }

  /** Lets running calls finish for a few seconds, cancels the rest, then stops the event loop. */
  @Override
  protected void doStop() {
    RpcTransport.Connected open = connected;
    if (open == null) {
      return;
    }
    Future<?> scheduled = nudge;
    if (scheduled != null) {
      scheduled.cancel(false);
    }
    ManagedChannel channel = open.channel();
    RpcTransport.shutDown(
        channel::shutdown, channel::shutdownNow, channel::awaitTermination, open.groups());
  }

  /** Stops the channel (see {@link #doStop()}). */
  @Override
  public void close() {
    RpcTransport.stop(this);
  }

  /**
   * The channel to make calls on: they go to the channel opened at start (after a stop, to the
   * closed channel, which fails them), and fail with {@link IllegalStateException} before.
   */
  public Channel channel() {
    return calls;
  }

  /** Where the channel connects to, once started. */
  public RpcTransport target() {
    RpcTransport to = opened;
    if (to == null) {
      throw new IllegalStateException("not started");
    }
    return to;
  }

  private ManagedChannel open() {
    RpcTransport.Connected open = connected;
    if (open == null) {
      throw new IllegalStateException("the channel to the runtime is not open");
    }
    return open.channel();
  }

  @Override
  public String toString() {
    RpcTransport to = opened;
    return "RpcChannel[" + (to == null ? "not open" : to) + "]";
  }

  private final class Calls extends Channel {
    @Override
    public <Q, A> ClientCall<Q, A> newCall(MethodDescriptor<Q, A> method, CallOptions options) {
      return open().newCall(method, options);
    }

    @Override
    public String authority() {
      return open().authority();
    }
  }
}
