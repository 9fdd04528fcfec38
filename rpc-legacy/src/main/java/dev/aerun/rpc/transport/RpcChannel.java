package dev.aerun.rpc.transport;

import io.grpc.ConnectivityState;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/** A gRPC channel to a server on an {@link RpcTransport}, and the event loop it owns. */
public final class RpcChannel implements AutoCloseable {
  private static final long GRACE_SECONDS = 5;

  /**
   * How soon a socket channel that failed to connect tries again. gRPC's own backoff grows to two
   * minutes (already about 8 s after a few failures): a front end started before its runtime, or
   * whose runtime restarted, would answer 503 long after the runtime serves again.
   */
  static final long RECONNECT_MILLIS = 250;

  private final ManagedChannel channel;
  private final RpcTransport target;
  private final List<EventLoopGroup> groups;
  private final Future<?> nudge;

  RpcChannel(ManagedChannel channel, RpcTransport target, List<EventLoopGroup> groups) {
    this(channel, target, groups, null);
  }

  private RpcChannel(
      ManagedChannel channel, RpcTransport target, List<EventLoopGroup> groups, Future<?> nudge) {
    this.channel = channel;
    this.target = target;
    this.groups = groups;
    this.nudge = nudge;
  }

  /**
   * A socket channel that keeps trying to connect every {@value #RECONNECT_MILLIS} ms while it
   * cannot (rather than after gRPC's growing backoff), on {@code scheduler}.
   */
  static RpcChannel reconnecting(
      ManagedChannel channel,
      RpcTransport target,
      List<EventLoopGroup> groups,
      ScheduledExecutorService scheduler) {
    Future<?> nudge =
        scheduler.scheduleWithFixedDelay(
            () -> nudge(channel), RECONNECT_MILLIS, RECONNECT_MILLIS, TimeUnit.MILLISECONDS);
    return new RpcChannel(channel, target, groups, nudge);
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

  /** The channel to make calls on. */
  public ManagedChannel channel() {
    return channel;
  }

  /** Where the channel connects to. */
  public RpcTransport target() {
    return target;
  }

  /** Lets running calls finish for a few seconds, cancels the rest, then stops the event loop. */
  @Override
  public void close() {
    if (nudge != null) {
      nudge.cancel(false);
    }
    channel.shutdown();
    try {
      if (!channel.awaitTermination(GRACE_SECONDS, TimeUnit.SECONDS)) {
        channel.shutdownNow();
        channel.awaitTermination(GRACE_SECONDS, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      channel.shutdownNow();
      Thread.currentThread().interrupt();
    }
    RpcServer.shutdownGroups(groups);
  }

  @Override
  public String toString() {
    return "RpcChannel[" + target + "]";
  }
}
