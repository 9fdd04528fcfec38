package dev.aerun.main;

import dev.aerun.appengine.descriptor.AppEngineWebXml;
import dev.aerun.appengine.descriptor.RuntimeSelection;
import dev.aerun.appengine.descriptor.ServingMode;
import dev.aerun.console.DevConsole;
import dev.aerun.httpconnector.HttpConnectorServer;
import dev.aerun.runtime.dev.Development;
import dev.aerun.runtime.dev.Loopback;
import dev.aerun.runtime.dev.ReloadableHandler;
import dev.aerun.runtime.lifecycle.Durations;
import dev.aerun.runtime.webapp.Deployment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.logging.Logger;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * What {@code --development} adds to the runtime: the {@code /_ah/dev} status page's text, the
 * console of the local services below it ({@link DevConsole}) and, with {@code --watch}, the
 * redeploy of the app in this JVM when its classes, jars or descriptors change (the handlers
 * themselves are in each mode's request path, see {@link Development}).
 *
 * <p>A change that cannot apply in this JVM (the mode, the EE version, {@code <env-variables>} or
 * the JVM-wide {@code <system-properties>}) drains and stops the runtime with {@link
 * Launcher#EXIT_RESTART}, for the dev server that started it to start it again.
 */
final class DevServer {
  private static final Logger log = Logger.getLogger(DevServer.class.getName());

  private final RuntimeConfig config;
  private final LaunchOptions options;
  private final StagedApp app;
  private volatile ReloadableHandler reloadable;
  private final WorkDirectory work;
  private final List<Path> watched;
  private volatile AppEngineWebXml descriptor;
  private volatile RuntimeSelection selection;
  private volatile RunningRuntime runtime;
  private volatile String lastReload = "none yet";
  private volatile int reloads;
  private final FileWatcher watcher;
  private final BundledServices apis;
  private final DevConsole console;

  DevServer(RuntimeConfig config, WorkDirectory work, BundledServices apis) {
    this.config = config;
    this.work = work;
    this.apis = apis;
    this.options = config.options();
    this.app = config.app();
    this.descriptor = config.descriptor();
    this.selection = config.selection();
    this.watched = options.watch() ? watchedPaths(app, options.classpath()) : List.of();
    this.watcher = options.watch() ? new FileWatcher(watched, this::changed) : null;
    String warning = exposureWarning(options.address());
    if (warning != null) {
      log.warning(warning);
    }
    this.console =
        new DevConsole(apis.localClient(), config.environment().applicationId(), app.location());
  }

  /**
   * What the request path adds: the check that tells the developer's requests from everyone else's,
   * the status page, the console, and the redeploy in place with --watch.
   */
  Development development() {
    return new Development(
        options.devHosts(), this::statusPage, options.watch(), Optional.of(console::handler));
  }

  /** The runtime serves HTTP on {@code port}. */
  void served(int port) {
    console.served(port);
  }

  /**
   * The warning for a development server bound where other machines reach it, or null: they get the
   * production answers, but the port, the app's own pages and its development-only code paths are
   * theirs to try.
   */
  static String exposureWarning(String address) {
    if (Loopback.isLoopbackAddress(address) || "localhost".equalsIgnoreCase(address)) {
      return null;
    }
    return "development server bound to "
        + address
        + ", reachable from other machines: only requests from this machine naming localhost,"
        + " 127.0.0.1 or [::1] (or a --dev-hosts name) get development trust, stack traces,"
        + " /_ah/dev and /_ah/login; use --address 127.0.0.1 unless others must reach it";
  }

  /** Starts watching once the runtime serves, redeploying through its {@link ReloadableHandler}. */
  void started(RunningRuntime running) {
    this.runtime = running;
    if (watcher != null) {
      reloadable =
          running.server().getContainedBeans(ReloadableHandler.class).stream()
              .findFirst()
              .orElseThrow(() -> new IllegalStateException("no ReloadableHandler to redeploy"));
      watcher.start();
    }
  }

  /** What the start line adds in development. */
  String startNote() {
    String trust =
        options.trustedProxies().isPresent()
            ? "trusted proxies " + options.trustedProxies().get()
            : "loopback clients naming " + options.devHosts() + " trusted";
    trust += options.forwardedFrom().map(f -> ", forwarding headers only from " + f).orElse("");
    String watching =
        !options.watch()
            ? "not watching (no --watch)"
            : "watching " + watched.size() + " path(s) for changes (" + shortList(watched) + ")";
    return "; development: "
        + trust
        + ", CONFIDENTIAL paths served over plain HTTP to this machine, "
        + watching
        + apis.startNote()
        + ", status at /_ah/dev";
  }

  /**
   * The files whose change redeploys the app: its classes, jars, {@code web.xml} and {@code
   * appengine-web.xml}, and the extra class path (a {@code .war}: the file itself). Static files
   * and JSPs are not among them: they are served from disk, fresh on each request.
   */
  static List<Path> watchedPaths(StagedApp app, List<Path> classpath) {
    List<Path> paths = new ArrayList<>();
    if (app.war()) {
      paths.add(app.location());
    } else {
      Path webInf = app.location().resolve("WEB-INF");
      paths.add(webInf.resolve("classes"));
      paths.add(webInf.resolve("lib"));
      paths.add(webInf.resolve("web.xml"));
      paths.add(webInf.resolve("appengine-web.xml"));
    }
    classpath.forEach(p -> paths.add(p.toAbsolutePath().normalize()));
    return paths;
  }

  private void changed(Set<Path> files) {
    String what = files.size() + " changed file(s): " + shortList(List.copyOf(files));
    AppEngineWebXml next;
    RuntimeSelection nextSelection;
    try {
      next = RuntimeStarter.readApp(options).descriptor();
      nextSelection = AppSettings.select(next, options);
    } catch (StartupException e) {
      reload(
          what,
          () -> {
            throw e;
          });
      return;
    }
    String why = needsNewJvm(descriptor, selection, next, nextSelection);
    if (why != null) {
      log.warning(
          app.descriptorName()
              + ": "
              + why
              + " changed, which cannot apply in this JVM: stopping for a restart");
      watcher.stop();
      runtime.restart("restart for a changed " + why);
      return;
    }
    reload(
        what,
        () -> {
          work.enter();
          try {
            if (app.war()) {
              deleteTree(work.app()); // the new war is unpacked afresh
            }
            Deployment fresh = AppDeployer.deploy(config, next, nextSelection, work, apis);
            descriptor = next;
            selection = nextSelection;
            return fresh;
          } finally {
            work.leave();
          }
        });
  }

  private void reload(String what, Deployment.Deployer next) {
    ReloadableHandler.Outcome outcome = reloadable.reloadBlocking(next);
    reloads++;
    String took = outcome.took().toMillis() + " ms";
    if (outcome.succeeded()) {
      lastReload = outcome.at() + ": reloaded in " + took + " after " + what;
      log.info("Reloaded " + app.displayName() + " in " + took + " after " + what);
    } else {
      Throwable failure = outcome.failure().get();
      lastReload =
          outcome.at() + ": FAILED after " + took + " (" + failure.getMessage() + ") after " + what;
      log.warning(
          "Reload of "
              + app.displayName()
              + " failed in "
              + took
              + ": "
              + failure.getMessage()
              + "; it answers an error page until the next change");
    }
  }

  private static void deleteTree(Path root) throws java.io.IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> tree = Files.walk(root)) {
      for (Path p : tree.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  /** What changed that this JVM cannot take on, or null if the change can be redeployed. */
  static String needsNewJvm(
      AppEngineWebXml before,
      RuntimeSelection beforeSelection,
      AppEngineWebXml after,
      RuntimeSelection afterSelection) {
    if (beforeSelection.mode() != afterSelection.mode()) {
      return "serving mode";
    }
    if (beforeSelection.ee() != afterSelection.ee()) {
      return "EE version";
    }
    if (!before.envVariables().equals(after.envVariables())) {
      return "<env-variables>";
    }
    if (!before.systemProperties().equals(after.systemProperties())) {
      return "<system-properties>";
    }
    if (before.appEngineApis() != after.appEngineApis()) {
      return "<app-engine-apis>";
    }
    return null;
  }

  /** The {@code /_ah/dev} page: plain text, for a developer on this machine. */
  String statusPage() {
    AppEngineWebXml d = descriptor;
    RuntimeSelection s = selection;
    StringBuilder page = new StringBuilder();
    page.append("aerun development server\n\n");
    line(page, "App", app.location().toString());
    line(
        page,
        "Mode",
        s.mode() == ServingMode.HTTP_CONNECTOR
            ? "HttpConnector"
            : "legacy RPC (" + options.rpcTransport().name().toLowerCase() + " transport)");
    line(page, "EE", s.ee().toString());
    line(page, "Runtime", s.runtimeId());
    line(page, "Jetty", HttpConnectorServer.jettyVersion());
    line(
        page,
        "Java",
        Runtime.version() + " (" + System.getProperty("java.vendor", "unknown vendor") + ")");
    line(page, "aerun", AppSettings.runtimeVersion());
    var memory = java.lang.management.ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
    var classes = java.lang.management.ManagementFactory.getClassLoadingMXBean();
    line(
        page,
        "JVM",
        "heap used "
            + memory.getUsed() / (1024 * 1024)
            + " MiB of "
            + memory.getMax() / (1024 * 1024)
            + " MiB, classes loaded "
            + classes.getLoadedClassCount()
            + " (unloaded so far "
            + classes.getUnloadedClassCount()
            + ")");
    line(
        page,
        "Trusted",
        options
                .trustedProxies()
                .map(Object::toString)
                .orElse(
                    "loopback (127.0.0.0/8, ::1) naming "
                        + options.devHosts()
                        + ", the development default")
            + options.forwardedFrom().map(f -> "; forwarding headers only: " + f).orElse(""));
    line(
        page,
        "Watching",
        !options.watch()
            ? "nothing (no --watch)"
            : shortList(watched) + " (" + reloads + " reloads)");
    line(page, "Last reload", lastReload);
    apis.statusLines(page);
    page.append("\nDescriptor (").append(app.descriptorName()).append("), as resolved\n");
    line(page, "  application", d.application().orElse("(none)"));
    line(page, "  version", d.version().orElse("(none)"));
    line(page, "  service", d.service().orElse("default"));
    line(page, "  sessions-enabled", String.valueOf(d.sessionsEnabled()));
    line(page, "  scaling", d.scaling().map(Object::toString).orElse("(none)"));
    page.append("  system properties:\n");
    AppSettings.appSystemProperties(d, options)
        .forEach(
            (k, v) -> page.append("    ").append(k).append('=').append(shown(k, v)).append('\n'));
    // Names only: values of environment variables are often secrets.
    line(
        page,
        "  env variables (names)",
        d.envVariables().isEmpty() ? "(none)" : String.join(", ", d.envVariables().keySet()));
    page.append("  static files:\n");
    line(page, "    public root", d.publicRoot().orElse("/"));
    line(
        page,
        "    default expiration",
        d.defaultExpirationSeconds()
            .map(sec -> Durations.format(Duration.ofSeconds(sec)))
            .orElse("10m (platform default)"));
    if (d.staticFiles().includes().isEmpty()) {
      page.append("    include /** (every file)\n");
    }
    for (AppEngineWebXml.StaticInclude include : d.staticFiles().includes()) {
      page.append("    include ").append(include.path());
      include
          .expirationSeconds()
          .ifPresent(
              sec -> page.append(" expiration ").append(Durations.format(Duration.ofSeconds(sec))));
      include
          .httpHeaders()
          .forEach((k, v) -> page.append(" [").append(k).append(": ").append(v).append(']'));
      page.append('\n');
    }
    d.staticFiles().excludes().forEach(e -> page.append("    exclude ").append(e).append('\n'));
    page.append("\nClass path of the app\n");
    for (Path entry : classPath()) {
      page.append("  ").append(entry).append('\n');
    }
    return page.toString();
  }

  /** Words in a property's name that say its value is a secret. */
  private static final List<String> SECRET_WORDS =
      List.of("password", "passwd", "secret", "token", "key", "credential");

  /** {@code value}, or a mask when {@code name} looks like a secret's. */
  static String shown(String name, String value) {
    String lower = name.toLowerCase(java.util.Locale.ROOT);
    return SECRET_WORDS.stream().anyMatch(lower::contains)
        ? "******** (hidden: the name looks like a secret's)"
        : value;
  }

  private List<Path> classPath() {
    List<Path> entries = new ArrayList<>();
    if (!app.war()) {
      Path webInf = app.location().resolve("WEB-INF");
      entries.add(webInf.resolve("classes"));
      Path lib = webInf.resolve("lib");
      if (Files.isDirectory(lib)) {
        try (Stream<Path> jars = Files.list(lib)) {
          jars.filter(j -> j.toString().endsWith(".jar")).sorted().forEach(entries::add);
        } catch (java.io.IOException e) {
          entries.add(lib);
        }
      }
    } else {
      entries.add(Path.of(app.location() + "!/WEB-INF/classes, WEB-INF/lib/*.jar"));
    }
    entries.addAll(options.classpath());
    return entries;
  }

  private static void line(StringBuilder page, String name, String value) {
    page.append(name).append(": ").append(value).append('\n');
  }

  private static String shortList(List<Path> paths) {
    String shown =
        paths.stream()
            .limit(4)
            .map(p -> Objects.toString(p.getFileName()))
            .collect(Collectors.joining(", "));
    return paths.size() > 4 ? shown + ", +" + (paths.size() - 4) + " more" : shown;
  }
}
