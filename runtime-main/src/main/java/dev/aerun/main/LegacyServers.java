package dev.aerun.main;

import dev.aerun.main.LaunchOptions.Role;
import dev.aerun.rpc.LegacyRpcServer;
import dev.aerun.rpc.transport.RpcTransport;
import dev.aerun.runtime.dev.Development;
import dev.aerun.runtime.load.BodyMemory;
import dev.aerun.runtime.server.PublicServerSpec;
import dev.aerun.runtime.server.RuntimeServer;
import dev.aerun.runtime.webapp.Deployment;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Legacy RPC mode's server for the configured role. Apart from {@link RuntimeStarter} so that
 * HttpConnector mode never loads a class of {@code rpc-legacy}: those are only on the class path in
 * legacy mode (see {@link LegacyJars}), and the verifier loads a class it sees passed as one of its
 * supertypes.
 */
final class LegacyServers {
  private LegacyServers() {}

  /**
   * The server of {@code config}'s role: both halves joined by {@code --rpc-transport}, the front
   * end calling {@code --rpc-target}, or the runtime serving gRPC at {@code --rpc-listen}.
   *
   * @param deployment the app; null for a front end
   */
  static RuntimeServer create(
      RuntimeConfig config, Deployment deployment, Optional<Development> development)
      throws StartupException {
    LaunchOptions options = config.options();
    PublicServerSpec serving = config.server();
    // One budget in this JVM, shared by both halves as they share the heap.
    BodyMemory memory =
        new BodyMemory(
            config.bodyMemoryBytes(), options.bodyMemoryWait().orElse(BodyMemory.DEFAULT_WAIT));
    LegacyRpcServer.Front front = new LegacyRpcServer.Front(serving, config.environment());
    if (config.role() == Role.FRONT) {
      RpcTransport target = options.rpcTarget().orElseThrow();
      if (target.kind() == RpcTransport.Kind.UNIX) {
        UnixSockets.require("--rpc-target " + target);
      }
      return LegacyRpcServer.frontEnd(front, target, memory);
    }
    LegacyRpcServer.Back back =
        new LegacyRpcServer.Back(deployment, development, serving.limits(), serving.capacity());
    if (config.role() == Role.RUNTIME) {
      RpcTransport listen = options.rpcListen().orElseThrow();
      if (listen.kind() == RpcTransport.Kind.UNIX) {
        UnixSockets.require("--rpc-listen " + listen);
      }
      return LegacyRpcServer.runtime(back, listen, memory);
    }
    Path socketDirectory = null;
    RpcTransport between;
    switch (options.rpcTransport()) {
      case TCP -> between = RpcTransport.tcp("127.0.0.1", 0);
      case UNIX -> {
        UnixSockets.require("--rpc-transport unix");
        socketDirectory = UnixSockets.newDirectory(options);
        between = RpcTransport.unix(socketDirectory.resolve("runtime.sock"));
      }
      default -> between = RpcTransport.inProcess();
    }
    LegacyRpcServer server = LegacyRpcServer.inOneJvm(front, back, between, memory);
    if (socketDirectory != null) {
      UnixSockets.deleteWhenStopped(server, socketDirectory);
    }
    return server;
  }
}
