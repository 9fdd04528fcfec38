package dev.aerun.runtime.logging;

import com.google.cloud.logging.HttpRequest;
import com.google.cloud.logging.LogEntry;
import com.google.cloud.logging.Payload.StringPayload;
import com.google.cloud.logging.Severity;
import com.google.cloud.logging.SourceLocation;
import dev.aerun.runtime.contract.TraceContext;
import java.io.PrintStream;
import java.util.logging.LogRecord;

/**
 * Writes each {@code java.util.logging} record as one line of Cloud Logging structured JSON: the
 * line Google's Cloud Logging library prints with its stdout target ({@link
 * LogEntry#toStructuredJsonString()}), which the platform's logging agent turns into a log entry:
 * {@code severity}, {@code time}, {@code message} (with the stack trace of an exception), {@code
 * logging.googleapis.com/sourceLocation}, the request's {@code logging.googleapis.com/trace},
 * {@code spanId} and {@code trace_sampled}, and for {@link AccessRecord}s {@code httpRequest}.
 *
 * <p>Why not the library's own {@code LoggingHandler} with {@code LogTarget.STDOUT}: whatever its
 * target, its constructor asks the metadata server ({@code http://metadata.google.internal}, 5 s
 * time-outs) which Google Cloud resource it runs on and creates the Logging API client ({@code
 * LoggingOptions.getService()}, a gRPC channel, and without explicit options a credentials and
 * project lookup). And its stdout lines carry a source location for DEBUG records only. Nor the
 * library's {@link LogEntry} per record: it builds a Gson for every entry (see {@link JsonLines}).
 * So {@link JsonLines} writes the line, and tests hold it to what {@link #formatWithLibrary} (the
 * library's {@code LogEntry}) gives for the same record: no network call and no credentials lookup
 * can happen, and none of the library's classes load, at start-up or per record.
 *
 * <p>The library writes {@code httpRequest.latency} as a Java {@code Duration} ({@code PT0.5S});
 * Cloud Logging reads a protobuf duration ({@code "0.5s"}), so the latency is written in that form.
 */
public final class CloudJsonHandler extends StdoutHandler {
  private static final String HTTP_REQUEST_FIELD = "\"httpRequest\":{";

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

  /**
   * The line as the library writes it, which {@link #format} must equal to the character: only
   * tests call it, so the library's classes are never loaded when the runtime logs.
   */
  String formatWithLibrary(LogRecord record, TraceContext threadTrace) {
    LogEntry.Builder entry;
    TraceContext trace;
    long latencyNanos = -1;
    if (record instanceof AccessRecord access) {
      entry = LogEntry.newBuilder(StringPayload.of(access.getMessage()));
      entry.setHttpRequest(httpRequest(access));
      latencyNanos = access.latencyNanos();
      trace = access.trace();
    } else {
      entry = LogEntry.newBuilder(StringPayload.of(Records.messageWithStackTrace(record)));
      Records.sourceFrame(record)
          .ifPresent(
              frame ->
                  entry.setSourceLocation(
                      SourceLocation.newBuilder()
                          .setFile(frame.getFileName())
                          .setLine((long) frame.getLineNumber())
                          .setFunction(frame.getClassName() + "." + frame.getMethodName())
                          .build()));
      trace = threadTrace;
    }
    entry
        .setSeverity(Severity.valueOf(JsonLines.severity(record.getLevel())))
        .setTimestamp(record.getInstant());
    if (record.getLoggerName() != null) {
      entry.addLabel("logger", record.getLoggerName());
    }
    if (trace != null) {
      entry.setTrace(traceName(trace.traceId())).setTraceSampled(trace.sampled());
      if (trace.spanId() != null) {
        entry.setSpanId(trace.spanId());
      }
    }
    String json = entry.build().toStructuredJsonString();
    return latencyNanos < 0 ? json : withLatency(json, latencyNanos);
  }

  /** {@code projects/<project>/traces/<id>}, the form that links a log entry to its trace. */
  String traceName(String traceId) {
    return projectId == null ? traceId : "projects/" + projectId + "/traces/" + traceId;
  }

  private static HttpRequest httpRequest(AccessRecord access) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder()
            .setRequestMethod(HttpRequest.RequestMethod.valueOf(access.method()))
            .setRequestUrl(access.pathQuery())
            .setStatus(access.status())
            .setResponseSize(access.responseBytes());
    if (access.remoteAddress() != null) {
      request.setRemoteIp(access.remoteAddress());
    }
    if (access.userAgent() != null) {
      request.setUserAgent(access.userAgent());
    }
    if (access.referer() != null) {
      request.setReferer(access.referer());
    }
    return request.build();
  }

  /** Adds {@code "latency":"S.NNNNNNNNNs"} as the first field of the {@code httpRequest} object. */
  static String withLatency(String json, long latencyNanos) {
    int at = json.indexOf(HTTP_REQUEST_FIELD);
    if (at < 0) {
      return json;
    }
    int insert = at + HTTP_REQUEST_FIELD.length();
    String latency =
        String.format(
            "\"latency\":\"%d.%09ds\"%s",
            latencyNanos / 1_000_000_000L,
            latencyNanos % 1_000_000_000L,
            json.charAt(insert) == '}' ? "" : ",");
    return json.substring(0, insert) + latency + json.substring(insert);
  }
}
