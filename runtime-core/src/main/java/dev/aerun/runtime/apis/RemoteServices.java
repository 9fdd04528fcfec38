package dev.aerun.runtime.apis;

import java.util.Map;

/**
 * The App Engine services an app may call through {@code ApiProxy}, what replaces each, and what to
 * say when no API host is named.
 */
final class RemoteServices {
  private RemoteServices() {}

  /** A service's name and its replacement, for the exception message. */
  record Service(String name, String replacement) {}

  private static final Map<String, Service> SERVICES =
      Map.ofEntries(
          Map.entry(
              "datastore_v3",
              new Service(
                  "Datastore",
                  "the Google Cloud client library for Datastore"
                      + " (com.google.cloud:google-cloud-datastore)")),
          Map.entry(
              "datastore_v4",
              new Service(
                  "Datastore",
                  "the Google Cloud client library for Datastore"
                      + " (com.google.cloud:google-cloud-datastore)")),
          Map.entry(
              "memcache",
              new Service(
                  "Memcache",
                  "Memorystore for Redis or Memcached, with a Redis or Memcached client library")),
          Map.entry(
              "taskqueue",
              new Service(
                  "Task Queue",
                  "the Google Cloud client library for Cloud Tasks"
                      + " (com.google.cloud:google-cloud-tasks)")),
          Map.entry("mail", new Service("Mail", "a mail provider's API or SMTP with Jakarta Mail")),
          Map.entry(
              "urlfetch",
              new Service("URL Fetch", "java.net.http.HttpClient or any HTTP client library")),
          Map.entry(
              "blobstore",
              new Service(
                  "Blobstore",
                  "the Google Cloud client library for Cloud Storage"
                      + " (com.google.cloud:google-cloud-storage)")),
          Map.entry(
              "images",
              new Service(
                  "Images",
                  "Cloud Storage (com.google.cloud:google-cloud-storage) and an image library")),
          Map.entry(
              "search",
              new Service("Search", "a search service such as Firestore queries or Elasticsearch")),
          Map.entry(
              "app_identity_service",
              new Service(
                  "App Identity",
                  "Google Auth Library (com.google.auth:google-auth-library-oauth2-http)")),
          Map.entry(
              "logservice",
              new Service(
                  "Logs",
                  "the Google Cloud client library for Logging"
                      + " (com.google.cloud:google-cloud-logging)")),
          Map.entry(
              "modules",
              new Service(
                  "Modules",
                  "the Google Cloud client library for the App Engine Admin API"
                      + " (com.google.cloud:google-cloud-appengine-admin)")),
          Map.entry(
              "capability_service",
              new Service("Capabilities", "nothing: every service here is available or not")),
          Map.entry(
              "xmpp", new Service("XMPP", "a messaging service such as Firebase Cloud Messaging")),
          Map.entry("channel", new Service("Channel", "WebSockets or Firebase Realtime Database")),
          Map.entry(
              "user",
              new Service(
                  "Users",
                  "Identity-Aware Proxy or Firebase Authentication (only the login and logout"
                      + " URLs are available here)")));

  /**
   * The message of a call to {@code packageName.methodName} without an API host: the service, that
   * it is not available, its replacement, and how to name an API host.
   */
  static String unavailable(String packageName, String methodName) {
    Service service =
        SERVICES.getOrDefault(
            packageName, new Service(packageName, "the matching Google Cloud client library"));
    return "App Engine's "
        + service.name()
        + " service ("
        + packageName
        + "."
        + methodName
        + ") is not available: no App Engine API host is named. Use "
        + service.replacement()
        + " instead, or name an API host with API_HOST and API_PORT (or the runtime's"
        + " --api-host HOST:PORT); on App Engine standard (GAE_ENV=standard) the platform's is"
        + " used, and in development (--development) a local one is started";
  }
}
