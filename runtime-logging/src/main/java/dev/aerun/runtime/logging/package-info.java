/**
 * The runtime's logs, the same in both serving modes: every {@code java.util.logging} record (the
 * runtime's, Jetty's and the app's, SLF4J included through {@code slf4j-jdk14}) as one line on
 * stdout, either Cloud Logging's structured JSON or plain text for a terminal; the trace of the
 * request being handled on every line logged while handling it; one request-log line per request.
 *
 * <p>Assembly: {@link dev.aerun.runtime.logging.RuntimeLogs#install} once at start-up, a {@link
 * dev.aerun.runtime.logging.RequestTraceHandler} right after the request contract, and a {@link
 * dev.aerun.runtime.logging.AccessLog} as the server's request log.
 */
package dev.aerun.runtime.logging;
