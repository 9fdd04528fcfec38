package dev.aerun.main;

import dev.aerun.appengine.descriptor.AppEngineWebXml;
import dev.aerun.runtime.apis.ApiHost;
import dev.aerun.runtime.apis.ApiHostClient;
import dev.aerun.runtime.env.AppEnvironment;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.logging.Logger;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * The API host of an app with {@code <app-engine-apis>}, chosen once per process: the one named
 * ({@code --api-host}, {@code API_HOST}/{@code API_PORT}, {@code LOCAL_API_HOSTPORT}), else on App
 * Engine standard ({@code GAE_ENV=standard}) the platform's, else in development a {@link
 * LocalApiHostProcess} started here, else none (remote calls then fail at once, saying how to name
 * a host). Its client is shared by every deploy of the app, so a hot reload keeps the host.
 */
final class BundledServices {
  private static final Logger log = Logger.getLogger(BundledServices.class.getName());

  private static final BundledServices NONE = new BundledServices(null, null, null);

  private final ApiHostClient client;
  private final LocalApiHostProcess local;
  private final Path storage;

  private BundledServices(ApiHostClient client, LocalApiHostProcess local, Path storage) {
    this.client = client;
    this.local = local;
    this.storage = storage;
  }

  /** No API host: an app without {@code <app-engine-apis>}, or nowhere to send its calls. */
  static BundledServices none() {
    return NONE;
  }

  /**
   * Chooses (and in development starts) the API host of the app.
   *
   * @throws StartupException when the local API host cannot be started
   */
  static BundledServices start(
      LaunchOptions options, StagedApp app, AppEngineWebXml descriptor, AppEnvironment environment)
      throws StartupException {
    if (!descriptor.appEngineApis()) {
      return NONE;
    }
    ApiHostOptions apis = options.apiHosts();
    Optional<ApiHost> host = apis.named();
    if (host.isEmpty() && "standard".equals(options.platform("GAE_ENV").orElse(""))) {
      host =
          Optional.of(
              new ApiHost(
                  ApiHost.PLATFORM_HOST, ApiHost.PLATFORM_PORT, null, "App Engine standard"));
    }
    if (host.isPresent()) {
      log.info(app.displayName() + ": App Engine API calls go to the API host " + host.get());
      return new BundledServices(new ApiHostClient(host.get()), null, null);
    }
    if (!options.development()) {
      return NONE;
    }
    Path lib =
        EeClassLoaders.runtimeHome()
            .map(home -> home.resolve("lib").resolve("apihost"))
            .filter(LocalApiHostProcess::present)
            .orElseThrow(
                () ->
                    new StartupException(
                        app.displayName()
                            + ": <app-engine-apis> needs the local API host, but lib/apihost is"
                            + " missing beside the runtime jar: use the launcher's distribution"
                            + " (runtime-main.jar with its lib/), or name an API host with"
                            + " --api-host HOST:PORT"));
    Path storage = apis.dataDirectory().orElseGet(() -> defaultStorage(app, apis.dataHome()));
    if (apis.clearData()) {
      deleteTree(storage);
      log.info("Cleared the local API host's data in " + storage);
    }
    copyConfiguration(app, storage);
    LocalApiHostProcess process =
        LocalApiHostProcess.startBlocking(
            new LocalApiHostProcess.Spec(
                Path.of(System.getProperty("java.home")),
                lib,
                storage,
                storage,
                environment.applicationId(),
                apis.logCalls()));
    return new BundledServices(new ApiHostClient(process.apiHost()), process, storage);
  }

  /** The app's files the local services read, copied into the data folder's {@code WEB-INF}. */
  static final List<String> CONFIGURATION = List.of("queue.xml", "datastore-indexes.xml");

  /**
   * Copies the app's {@link #CONFIGURATION} files into {@code storage/WEB-INF/}, the folder the
   * local services see as the app's: they read them there, and the Datastore writes {@code
   * WEB-INF/appengine-generated/datastore-indexes-auto.xml} beside them (in the data folder, never
   * in the app's sources or a {@code .war}'s temporary unpack directory). A file the app no longer
   * has is removed.
   */
  static void copyConfiguration(StagedApp app, Path storage) throws StartupException {
    Path webInf = storage.resolve("WEB-INF");
    try {
      Files.createDirectories(webInf);
      for (String name : CONFIGURATION) {
        Path copy = webInf.resolve(name);
        if (app.war()) {
          try (ZipFile war = new ZipFile(app.location().toFile())) {
            ZipEntry entry = war.getEntry("WEB-INF/" + name);
            if (entry == null) {
              Files.deleteIfExists(copy);
            } else {
              try (InputStream in = war.getInputStream(entry)) {
                Files.write(copy, in.readNBytes(MAX_CONFIGURATION_BYTES));
              }
            }
          }
        } else {
          Path source = app.location().resolve("WEB-INF").resolve(name);
          if (Files.isRegularFile(source)) {
            Files.copy(source, copy, StandardCopyOption.REPLACE_EXISTING);
          } else {
            Files.deleteIfExists(copy);
          }
        }
      }
    } catch (IOException e) {
      throw new StartupException(
          "the local API host's data folder " + storage + " cannot be prepared: " + e, e);
    }
  }

  private static final int MAX_CONFIGURATION_BYTES = 1024 * 1024;

  /**
   * The local API host's data folder of an app served by the launcher: one per app location, so
   * stopping and starting the dev server on the same app finds its data again: {@code
   * DATA_HOME/aerun/api-data/NAME-HASH} (see {@link ApiHostOptions#dataHome()}), NAME the app's
   * file name, HASH the first 12 hex digits of the SHA-256 of its absolute path.
   */
  static Path defaultStorage(StagedApp app, Path base) {
    Path location = app.location().toAbsolutePath().normalize();
    String name =
        String.valueOf(location.getFileName())
            .replaceAll("[^A-Za-z0-9._-]", "_")
            .toLowerCase(Locale.ROOT);
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256")
              .digest(location.toString().getBytes(StandardCharsets.UTF_8));
      return base.resolve("aerun")
          .resolve("api-data")
          .resolve(name + "-" + HexFormat.of().formatHex(digest, 0, 6));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void deleteTree(Path root) throws StartupException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> tree = Files.walk(root)) {
      for (Path p : tree.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    } catch (IOException e) {
      throw new StartupException("--api-data-clear: cannot delete " + root + ": " + e, e);
    }
  }

  /** The API host's client, or null when there is none. */
  ApiHostClient client() {
    return client;
  }

  /** The local API host's client, or null when the app's calls go elsewhere or nowhere. */
  ApiHostClient localClient() {
    return local == null ? null : client;
  }

  /** The runtime serves on {@code port}: the local API host's push tasks go there. */
  void served(int port) {
    if (local != null) {
      local.appServes(port);
    }
  }

  /** What the start line says about the API host ("" when there is none). */
  String startNote() {
    if (local != null) {
      return ", local API host at 127.0.0.1:" + local.port() + " (data in " + storage + ")";
    }
    return client == null ? "" : ", API host " + client.host();
  }

  /** The {@code /_ah/dev} lines. */
  void statusLines(StringBuilder page) {
    if (local != null) {
      page.append("API host: local, 127.0.0.1:")
          .append(local.port())
          .append(" (Google's local services; restarted ")
          .append(local.restarts())
          .append(" times)\n");
      page.append("API data: ").append(storage).append('\n');
    } else if (client != null) {
      page.append("API host: ").append(client.host()).append('\n');
    } else {
      page.append("API host: none (no <app-engine-apis>, or none named)\n");
    }
  }
}
