package dev.aerun.runtime.apis;

import java.util.Map;

/**
 * The platform's API call deadlines, in seconds: a call without one of its own gets its service's
 * default, and no call gets more than its service's maximum (10 s for a service not listed).
 */
final class ApiDeadlines {
  private ApiDeadlines() {}

  private static final double OTHERS = 10.0;

  private static final Map<String, Double> DEFAULTS =
      Map.ofEntries(
          Map.entry("app_config_service", 60.0),
          Map.entry("blobstore", 15.0),
          Map.entry("datastore_v3", 60.0),
          Map.entry("datastore_v4", 60.0),
          Map.entry("file", 30.0),
          Map.entry("images", 30.0),
          Map.entry("logservice", 60.0),
          Map.entry("mail", 30.0),
          Map.entry("modules", 60.0),
          Map.entry("rdbms", 60.0),
          Map.entry("remote_socket", 60.0),
          Map.entry("search", 10.0));

  private static final Map<String, Double> MAXIMA =
      Map.ofEntries(
          Map.entry("app_config_service", 60.0),
          Map.entry("blobstore", 30.0),
          Map.entry("datastore_v3", 270.0),
          Map.entry("datastore_v4", 270.0),
          Map.entry("file", 60.0),
          Map.entry("images", 30.0),
          Map.entry("logservice", 60.0),
          Map.entry("mail", 60.0),
          Map.entry("modules", 60.0),
          Map.entry("rdbms", 60.0),
          Map.entry("remote_socket", 60.0),
          Map.entry("search", 60.0),
          Map.entry("taskqueue", 30.0),
          Map.entry("urlfetch", 60.0));

  /**
   * The deadline of a call to {@code service}: the app's ({@code appSeconds}, null for none) or the
   * service's default, at most the service's maximum and the time left in the request.
   */
  static double of(String service, Number appSeconds, double requestSecondsLeft) {
    double asked =
        appSeconds != null && appSeconds.doubleValue() > 0
            ? appSeconds.doubleValue()
            : DEFAULTS.getOrDefault(service, OTHERS);
    return Math.min(Math.min(asked, MAXIMA.getOrDefault(service, OTHERS)), requestSecondsLeft);
  }
}
