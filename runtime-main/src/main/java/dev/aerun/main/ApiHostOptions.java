package dev.aerun.main;

import dev.aerun.runtime.apis.ApiHost;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Where the app's bundled services ({@code <app-engine-apis>}) are answered, as named at the edge:
 * {@code --api-host HOST:PORT}, else {@code API_HOST} and {@code API_PORT} (each defaults to the
 * platform's, {@value ApiHost#PLATFORM_HOST}:{@value ApiHost#PLATFORM_PORT}), else {@code
 * LOCAL_API_HOSTPORT=HOST:PORT}; and, for the local API host of development, where its data lives
 * ({@code --api-data DIR}) and whether to clear it first ({@code --api-data-clear}).
 *
 * @param named the API host named by an option or the environment
 * @param dataDirectory the local API host's data folder, when named
 * @param clearData whether the local API host's data is deleted before it starts
 * @param logCalls whether the local API host logs every call with its request id ({@code
 *     AERUN_API_HOST_LOG_CALLS} set)
 * @param dataHome the folder under which the launcher keeps each app's data when {@code
 *     dataDirectory} is empty: {@code $XDG_DATA_HOME}, else {@code $HOME/.local/share}, else the
 *     temporary folder
 */
record ApiHostOptions(
    Optional<ApiHost> named,
    Optional<Path> dataDirectory,
    boolean clearData,
    boolean logCalls,
    Path dataHome) {
  static final String LOG_CALLS = "AERUN_API_HOST_LOG_CALLS";
  static final String API_HOST = "API_HOST";
  static final String API_PORT = "API_PORT";
  static final String LOCAL_API_HOSTPORT = "LOCAL_API_HOSTPORT";

  static ApiHostOptions none() {
    return new ApiHostOptions(
        Optional.empty(),
        Optional.empty(),
        false,
        false,
        Path.of(System.getProperty("java.io.tmpdir")));
  }

  /** {@code $XDG_DATA_HOME}, else {@code $HOME/.local/share}, else the temporary folder. */
  static Path dataHome(Map<String, String> environment) {
    String xdg = blankToNull(environment.get("XDG_DATA_HOME"));
    if (xdg != null) {
      return Path.of(xdg);
    }
    String home = blankToNull(environment.get("HOME"));
    return home != null
        ? Path.of(home, ".local", "share")
        : Path.of(System.getProperty("java.io.tmpdir"));
  }

  /**
   * The host the environment names, if any.
   *
   * @throws UsageException when a variable's value cannot be a host or port
   */
  static Optional<ApiHost> fromEnvironment(Map<String, String> environment) throws UsageException {
    String host = blankToNull(environment.get(API_HOST));
    String port = blankToNull(environment.get(API_PORT));
    try {
      if (host != null || port != null) {
        return Optional.of(
            new ApiHost(
                host == null ? ApiHost.PLATFORM_HOST : host,
                port == null ? ApiHost.PLATFORM_PORT : ApiHost.port(port, "API_PORT=" + port),
                null,
                "API_HOST and API_PORT"));
      }
      String hostPort = blankToNull(environment.get(LOCAL_API_HOSTPORT));
      if (hostPort != null) {
        return Optional.of(ApiHost.parse(hostPort, LOCAL_API_HOSTPORT));
      }
    } catch (IllegalArgumentException e) {
      throw new UsageException(
          "environment variable API_HOST/API_PORT/LOCAL_API_HOSTPORT " + e.getMessage());
    }
    return Optional.empty();
  }

  /** {@code --api-host}'s value. */
  static ApiHost parseOption(String value) throws UsageException {
    try {
      return ApiHost.parse(value, "--api-host");
    } catch (IllegalArgumentException e) {
      throw new UsageException("--api-host " + e.getMessage());
    }
  }

  private static String blankToNull(String value) {
    return value == null || value.isBlank() ? null : value.trim();
  }
}
