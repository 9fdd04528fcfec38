package dev.aerun.runtime.logging;

import com.google.cloud.logging.HttpRequest;
import com.google.cloud.logging.LogEntry;
import com.google.cloud.logging.Payload.StringPayload;
import com.google.cloud.logging.Severity;
import com.google.cloud.logging.SourceLocation;
import dev.aerun.runtime.contract.TraceContext;
import java.util.logging.LogRecord;

/**
 * Google's Cloud Logging library writing the JSON line of a record ({@code
 * LogEntry.toStructuredJsonString()}): what {@link CloudJsonHandler} writes must equal it. The
 * library is a test dependency only; the runtime never loads it.
 */
final class LibraryLines {
  private static final String HTTP_REQUEST_FIELD = "\"httpRequest\":{";

  private LibraryLines() {}

  /**
   * The line as the library writes it for {@code handler}'s project, which {@link
   * CloudJsonHandler#format} must equal to the character.
   */
  static String format(CloudJsonHandler handler, LogRecord record, TraceContext threadTrace) {
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
      entry.setTrace(handler.traceName(trace.traceId())).setTraceSampled(trace.sampled());
      if (trace.spanId() != null) {
        entry.setSpanId(trace.spanId());
      }
    }
    String json = entry.build().toStructuredJsonString();
    return latencyNanos < 0 ? json : withLatency(json, latencyNanos);
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
