package dev.aerun.runtime.env;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Who the app is and where it runs, as the app sees it through the App Engine system properties.
 *
 * @param applicationId the application id ({@code GAE_APPLICATION}, else the project, else the
 *     descriptor's {@code <application>})
 * @param version the app version ({@code GAE_VERSION}, else the descriptor's {@code <version>})
 * @param service the service ({@code GAE_SERVICE}, else the descriptor's, else {@code default})
 * @param runtimeVersion this runtime's own version string
 * @param development true for {@code Development}, false for {@code Production}
 */
public record AppEnvironment(
    String applicationId,
    String version,
    String service,
    String runtimeVersion,
    boolean development) {

  /** {@code Production} or {@code Development}. */
  public static final String ENVIRONMENT_PROPERTY = "com.google.appengine.runtime.environment";

  /** This runtime's version. */
  public static final String RUNTIME_VERSION_PROPERTY = "com.google.appengine.runtime.version";

  /** The application id. */
  public static final String APPLICATION_ID_PROPERTY = "com.google.appengine.application.id";

  /** The app version. */
  public static final String APPLICATION_VERSION_PROPERTY =
      "com.google.appengine.application.version";

  public AppEnvironment {
    Objects.requireNonNull(applicationId, "applicationId");
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(service, "service");
    Objects.requireNonNull(runtimeVersion, "runtimeVersion");
  }

  /** The system properties every app sees, in a stable order. */
  public Map<String, String> systemProperties() {
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put(ENVIRONMENT_PROPERTY, development ? "Development" : "Production");
    properties.put(RUNTIME_VERSION_PROPERTY, runtimeVersion);
    properties.put(APPLICATION_ID_PROPERTY, applicationId);
    properties.put(APPLICATION_VERSION_PROPERTY, version);
    return properties;
  }
}
