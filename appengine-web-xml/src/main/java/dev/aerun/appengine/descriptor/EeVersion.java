package dev.aerun.appengine.descriptor;

/** The Jakarta/Java EE servlet environment an application is hosted on. */
public enum EeVersion {
  /** {@code javax.servlet} (Servlet 4). */
  EE8,
  /** {@code jakarta.servlet} (Servlet 6.0). */
  EE10,
  /** {@code jakarta.servlet} (Servlet 6.1). */
  EE11
}
