package dev.aerun.main;

import dev.aerun.appengine.descriptor.AppEngineWebXml;
import dev.aerun.appengine.descriptor.EeVersion;
import dev.aerun.appengine.descriptor.RuntimeSelection;
import dev.aerun.appengine.descriptor.ServingMode;
import dev.aerun.main.LaunchOptions.Role;
import dev.aerun.runtime.env.AppEnvironment;
import dev.aerun.runtime.load.BodyMemory;
import dev.aerun.runtime.logging.LogFormat;
import dev.aerun.runtime.server.PublicServerSpec;
import dev.aerun.runtime.statics.StaticFiles;
import dev.aerun.startline.StartLine;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the runtime starts with, worked out once before anything starts from what the command line,
 * the environment, the app's descriptor and the JVM's heap say (by {@link AppSettings}' rules, the
 * command line winning). Immutable: every part of the runtime is given this, or a value taken from
 * it; none reads the environment, system properties or the heap size again.
 *
 * @param options the command line and environment, as read
 * @param app the app; null for a front end without one (it runs no app)
 * @param descriptor the app's descriptor; empty for a front end without an app
 * @param name the app's name in the start line and in a start failure
 * @param selection the serving mode and EE version; null for a front end, which hosts no webapp
 * @param effective the descriptor's system properties with the command line's {@code -D} on top
 * @param appSystemProperties what the app finds in {@link System#getProperties()}
 * @param server the public server: where to listen, trust, limits and capacity (a runtime for a
 *     front end in another process uses its limits and capacity)
 * @param environment the app, version and service ids
 * @param staticCacheBytes the memory static files may be kept in; 0 in development
 * @param bodyMemoryBytes the memory legacy mode's buffered bodies may take in this JVM
 */
record RuntimeConfig(
    LaunchOptions options,
    StagedApp app,
    AppEngineWebXml descriptor,
    String name,
    RuntimeSelection selection,
    Map<String, String> effective,
    Map<String, String> appSystemProperties,
    PublicServerSpec server,
    AppEnvironment environment,
    long staticCacheBytes,
    long bodyMemoryBytes) {
  /** The idle timeout of public connections. */
  static final Duration IDLE_TIMEOUT = Duration.ofSeconds(30);

  RuntimeConfig {
    // Copies that keep the descriptor's order: where names differ only in case, the last wins.
    effective = Collections.unmodifiableMap(new LinkedHashMap<>(effective));
    appSystemProperties = Collections.unmodifiableMap(new LinkedHashMap<>(appSystemProperties));
  }

  /**
   * The configuration for {@code read}, on a JVM whose heap may grow to {@code maxHeapBytes}.
   *
   * @throws StartupException if the mode or EE version cannot be chosen, or a front end's app
   *     cannot be read
   */
  static RuntimeConfig of(LaunchOptions options, RuntimeStarter.App read, long maxHeapBytes)
      throws StartupException {
    StagedApp app = read.staged();
    AppEngineWebXml descriptor = read.descriptor();
    RuntimeSelection selection = null;
    if (options.role() == Role.FRONT) {
      // The front end's app is optional: its descriptor only contributes ids and properties.
      app = options.app().isPresent() ? StagedApp.open(options.app().get()) : null;
      descriptor = app != null ? RuntimeStarter.readDescriptor(app) : AppEngineWebXml.empty();
    } else {
      selection = AppSettings.select(descriptor, options);
    }
    Map<String, String> effective = AppSettings.effective(descriptor, options);
    AppEnvironment environment = AppSettings.environment(descriptor, options);
    // What request targets the public port accepts depends on the app's EE; a front end with the
    // app knows it, one without accepts what every EE accepts.
    EeVersion ee =
        selection != null
            ? selection.ee()
            : app != null ? AppSettings.select(descriptor, options).ee() : null;
    PublicServerSpec server =
        new PublicServerSpec(
            options.address(),
            options.port(),
            // An app with <app-engine-apis> takes the API ticket its front end sends.
            AppSettings.contract(effective, options).withApiTicket(descriptor.appEngineApis()),
            AppSettings.limits(effective, options, ee),
            IDLE_TIMEOUT,
            AppSettings.capacity(descriptor, options, maxHeapBytes),
            options.requestLog(LogFormat::hasTerminal),
            AppSettings.protocols(effective, options),
            options.unixSocket().orElse(null));
    return new RuntimeConfig(
        options,
        app,
        descriptor,
        app != null ? app.displayName() : environment.applicationId(),
        selection,
        effective,
        selection != null ? AppSettings.appSystemProperties(descriptor, options) : Map.of(),
        server,
        environment,
        // Development: files are edited while the app runs, so none is kept in memory.
        options.development() ? 0 : StaticFiles.cacheBytesForHeap(maxHeapBytes),
        BodyMemory.bytesForHeap(maxHeapBytes));
  }

  Role role() {
    return options.role();
  }

  /** Whether this process serves in legacy RPC mode, either half or both. */
  boolean legacy() {
    return role() != Role.ALL || selection.mode() == ServingMode.LEGACY_RPC;
  }

  /** The selection's warnings, each naming the descriptor. */
  List<String> selectionWarnings() {
    return selection == null
        ? List.of()
        : selection.warnings().stream().map(w -> app.descriptorName() + ": " + w).toList();
  }

  /**
   * The start line ({@link StartLine}, but for the legacy runtime role, which serves no HTTP);
   * people wait for it, and the plugin, the tests and scripts take the port from it.
   *
   * @param at where the server takes requests (see {@code RuntimeServer#endpoint})
   * @param startedMillis milliseconds since the launcher started
   * @param note what development adds to the line, or empty
   */
  String startLine(String at, long startedMillis, String note) {
    if (role() == Role.RUNTIME) { // nothing here serves HTTP
      return String.format(
          "Runtime for %s in legacy RPC mode (%s) serving gRPC at %s - started in %d ms",
          name, selection.ee(), at, startedMillis);
    }
    String how =
        switch (role()) {
          case FRONT ->
              "legacy RPC mode (front end, runtime at " + options.rpcTarget().orElseThrow() + ")";
          default ->
              selection.mode() == ServingMode.LEGACY_RPC
                  ? "legacy RPC mode ("
                      + selection.ee()
                      + ", "
                      + options.rpcTransport().name().toLowerCase(Locale.ROOT)
                      + " transport)"
                  : "HttpConnector mode (" + selection.ee() + ")";
        };
    return StartLine.format(
        name + " in " + how + " on Jetty " + org.eclipse.jetty.util.Jetty.VERSION,
        at,
        startedMillis,
        note);
  }
}
