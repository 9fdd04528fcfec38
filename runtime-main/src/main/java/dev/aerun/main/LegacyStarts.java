package dev.aerun.main;

import dev.aerun.appengine.descriptor.AppEngineWebXml;
import dev.aerun.rpc.LegacyRpcServer;
import dev.aerun.rpc.transport.RpcTransport;
import dev.aerun.runtime.env.AppEnvironment;
import dev.aerun.runtime.load.Capacity;
import dev.aerun.runtime.logging.RuntimeLogs;
import dev.aerun.runtime.server.PublicServerSpec;
import java.nio.file.Path;
import java.util.Map;
import java.util.logging.Logger;

/**
 * Legacy RPC mode's starts. Apart from {@link RuntimeStarter} so that HttpConnector mode never
 * loads a class of {@code rpc-legacy}: those are only on the class path in legacy mode (see {@link
 * LegacyJars}).
 */
final class LegacyStarts {
  /** The start line's logger, the same in every mode. */
  private static final Logger log = Logger.getLogger(RuntimeStarter.class.getName());

  private LegacyStarts() {}

  /** Legacy RPC mode in this process: runtime and front end joined by {@code --rpc-transport}. */
  static RunningRuntime startLegacy(RuntimeStarter.Deployed deployed) throws StartupException {
    StagedApp app = deployed.app();
    LaunchOptions options = deployed.options();
    Map<String, String> effective = AppSettings.effective(deployed.descriptor(), options);
    Path socketDirectory = null;
    RpcTransport transport;
    switch (options.rpcTransport()) {
      case TCP -> transport = RpcTransport.tcp("127.0.0.1", 0);
      case UNIX -> {
        UnixSockets.require("--rpc-transport unix");
        socketDirectory = UnixSockets.newDirectory(options);
        transport = RpcTransport.unix(socketDirectory.resolve("runtime.sock"));
      }
      default -> transport = RpcTransport.inProcess();
    }
    PublicServerSpec serving =
        RuntimeStarter.publicServer(
            effective, options, deployed.capacity(), deployed.descriptor().appEngineApis());
    LegacyRpcServer server =
        LegacyRpcServer.inOneJvm(
            new LegacyRpcServer.Front(
                serving, AppSettings.environment(deployed.descriptor(), options)),
            new LegacyRpcServer.Back(deployed.webapp(), serving.limits(), serving.capacity()),
            transport);
    if (socketDirectory != null) {
      UnixSockets.deleteWhenStopped(server, socketDirectory);
    }
    RunningRuntime running = RuntimeStarter.start(app.displayName(), options, server);
    deployed.served().accept(server.port());
    RuntimeStarter.logServing(
        app.displayName(),
        "legacy RPC mode ("
            + deployed.selection().ee()
            + ", "
            + transport.kindName()
            + " transport)",
        options,
        server.port(),
        deployed.devNote());
    return running;
  }

  /** {@code --role runtime}: the app, serving gRPC at {@code --rpc-listen} for a front end. */
  static RunningRuntime startRuntime(RuntimeStarter.Deployed deployed) throws StartupException {
    StagedApp app = deployed.app();
    LaunchOptions options = deployed.options();
    RpcTransport listen = options.rpcListen().orElseThrow();
    if (listen.kind() == RpcTransport.Kind.UNIX) {
      UnixSockets.require("--rpc-listen " + listen);
    }
    LegacyRpcServer server =
        LegacyRpcServer.runtime(
            new LegacyRpcServer.Back(
                deployed.webapp(),
                AppSettings.limits(AppSettings.effective(deployed.descriptor(), options), options),
                deployed.capacity()),
            listen);
    RunningRuntime running = RuntimeStarter.start(app.displayName(), options, server);
    // Not the "at http://" of a public port: nothing here serves HTTP.
    RuntimeLogs.announce(
        log,
        String.format(
            "Runtime for %s in legacy RPC mode (%s) serving gRPC at %s - started in %d ms",
            app.displayName(),
            deployed.selection().ee(),
            server.rpcAddress(),
            RuntimeStarter.startupMillis(options)));
    return running;
  }

  /**
   * {@code --role front}: the public port, forwarding to the runtime at {@code --rpc-target}. The
   * app is optional: its descriptor only contributes ids and {@code appengine.*} properties.
   */
  static RunningRuntime startFront(LaunchOptions options) throws StartupException {
    RpcTransport target = options.rpcTarget().orElseThrow();
    if (target.kind() == RpcTransport.Kind.UNIX) {
      UnixSockets.require("--rpc-target " + target);
    }
    AppEngineWebXml descriptor = AppEngineWebXml.empty();
    String name = null;
    if (options.app().isPresent()) {
      StagedApp app = StagedApp.open(options.app().get());
      descriptor = RuntimeStarter.readDescriptor(app);
      name = app.displayName();
    }
    Map<String, String> effective = AppSettings.effective(descriptor, options);
    AppEnvironment environment = AppSettings.environment(descriptor, options);
    Capacity capacity = AppSettings.capacity(descriptor, options, Runtime.getRuntime().maxMemory());
    AppSettings.logCapacity(capacity, false);
    LegacyRpcServer front =
        LegacyRpcServer.frontEnd(
            new LegacyRpcServer.Front(
                RuntimeStarter.publicServer(
                    effective, options, capacity, descriptor.appEngineApis()),
                environment),
            target);
    String shown = name != null ? name : environment.applicationId();
    RunningRuntime running = RuntimeStarter.start("the front end for " + shown, options, front);
    RuntimeStarter.logServing(
        shown, "legacy RPC mode (front end, runtime at " + target + ")", options, front.port(), "");
    return running;
  }
}
