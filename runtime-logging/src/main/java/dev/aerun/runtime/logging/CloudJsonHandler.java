package dev.aerun.runtime.logging;

import dev.aerun.runtime.contract.TraceContext;
import java.io.PrintStream;
import java.util.logging.LogRecord;

/**
 * Writes each {@code java.util.logging} record as one line of Cloud Logging structured JSON: the
 * line Google's Cloud Logging library prints with its stdout target ({@code
 * LogEntry.toStructuredJsonString()}), which the platform's logging agent turns into a log entry:
 * {@code severity}, {@code time}, {@code message} (with the stack trace of an exception), {@code
 * logging.googleapis.com/sourceLocation}, the request's {@code logging.googleapis.com/trace},
 * {@code spanId} and {@code trace_sampled}, and for {@link AccessRecord}s {@code httpRequest}.
 *
 * <p>Why not the library's own {@code LoggingHandler} with {@code LogTarget.STDOUT}: whatever its
 * target, its constructor asks the metadata server ({@code http://metadata.google.internal}, 5 s
 * time-outs) which Google Cloud resource it runs on and creates the Logging API client ({@code
 * LoggingOptions.getService()}, a gRPC channel, and without explicit options a credentials and
 * project lookup). And its stdout lines carry a source location for DEBUG records only. Nor the
 * library's {@code LogEntry} per record: it builds a Gson for every entry (see {@link JsonLines}).
 * So {@link JsonLines} writes the line, and tests hold it to what the library's {@code LogEntry}
 * gives for the same record: no network call and no credentials lookup can happen, and the library
 * is not on the runtime's class path at all (a test dependency only).
 *
 * <p>The library writes {@code httpRequest.latency} as a Java {@code Duration} ({@code PT0.5S});
 * Cloud Logging reads a protobuf duration ({@code "0.5s"}), so the latency is written in that form.
 */
public final class CloudJsonHandler extends StdoutHandler {

  /** The request-log line, written without a {@code String} (see {@link JsonLines}). */
  @Override
  void appendAccessLine(StringBuilder line, AccessRecord access) {
    JsonLines.appendAccess(line, access, projectId);
  }

  private final String projectId;

  /**
   * @param out where lines go (stdout in production, buffered: see {@link RuntimeLogs}); one {@code
   *     println} per record
   * @param projectId the Google Cloud project the trace ids belong to, or null when unknown (the
   *     trace is then written as the bare trace id)
   */
  public CloudJsonHandler(PrintStream out, String projectId) {
    super(out);
    this.projectId = projectId == null || projectId.isBlank() ? null : projectId;
  }

  /**
   * The JSON line for {@code record}, written without the library (see {@link JsonLines}); {@code
   * threadTrace} is the publishing thread's trace.
   */
  @Override
  String format(LogRecord record, TraceContext threadTrace) {
    StringBuilder line = new StringBuilder(512);
    if (record instanceof AccessRecord access) {
      JsonLines.appendAccess(line, access, projectId);
    } else {
      JsonLines.appendRecord(
          line,
          record,
          Records.sourceFrame(record).orElse(null),
          threadTrace,
          Records.messageWithStackTrace(record),
          projectId);
    }
    return line.toString();
  }

  /** {@code projects/<project>/traces/<id>}, the form that links a log entry to its trace. */
  String traceName(String traceId) {
    return projectId == null ? traceId : "projects/" + projectId + "/traces/" + traceId;
  }
}
