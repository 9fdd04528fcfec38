package dev.aerun.appengine.descriptor;

/** The value of {@code <url-stream-handler>}. */
public enum UrlStreamHandler {
  /** {@code native}: the JDK's own URL handlers. */
  NATIVE,
  /** {@code urlfetch}: URLs go through the URL Fetch service. */
  URLFETCH
}
