package dev.aerun.appengine.descriptor;

/** How requests reach the application. */
public enum ServingMode {
  /**
   * One Jetty server streams requests straight into the app ({@code appengine.use.HttpConnector}).
   */
  HTTP_CONNECTOR,
  /** The legacy path: front server, RPC, back server with an RPC connector (the default). */
  LEGACY_RPC
}
