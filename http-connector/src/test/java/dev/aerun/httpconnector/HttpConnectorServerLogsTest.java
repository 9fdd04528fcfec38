package dev.aerun.httpconnector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.aerun.runtime.contract.TraceContext;
import dev.aerun.runtime.logging.AccessLog;
import dev.aerun.runtime.logging.AccessRecord;
import dev.aerun.runtime.logging.RequestTrace;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The server carries the logs' pieces: the trace while the app runs, one request-log record. */
class HttpConnectorServerLogsTest {
  private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";

  private final List<TraceContext> tracesSeenByApp = new CopyOnWriteArrayList<>();
  private final LinkedBlockingQueue<LogRecord> requestLog = new LinkedBlockingQueue<>();
  private final Logger requestLogger = Logger.getLogger(AccessLog.LOGGER_NAME);
  private final Handler capture =
      new Handler() {
        @Override
        public void publish(LogRecord record) {
          requestLog.add(record);
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
      };
  private HttpConnectorServer server;

  @AfterEach
  void stop() throws Exception {
    requestLogger.removeHandler(capture);
    if (server != null) {
      server.stop();
    }
  }

  @Test
  void appRunsInTheRequestsTraceAndEachRequestIsLogged() throws Exception {
    requestLogger.addHandler(capture);
    server =
        new HttpConnectorServer(
            HttpConnectorServer.Spec.defaults(
                    new org.eclipse.jetty.server.Handler.Abstract() {
                      @Override
                      public boolean handle(Request request, Response response, Callback callback) {
                        tracesSeenByApp.add(RequestTrace.current());
                        response.write(true, StandardCharsets.UTF_8.encode("ok"), callback);
                        return true;
                      }
                    })
                .withServer(s -> s.withHost("127.0.0.1").withPort(0)));
    server.start();

    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/t?q=1"))
                    .header("traceparent", "00-" + TRACE_ID + "-00f067aa0ba902b7-01")
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertEquals(200, response.statusCode());

    assertEquals(List.of(new TraceContext(TRACE_ID, "00f067aa0ba902b7", true)), tracesSeenByApp);
    AccessRecord line = assertInstanceOf(AccessRecord.class, requestLog.poll(10, TimeUnit.SECONDS));
    assertEquals("/t?q=1", line.pathQuery());
    assertEquals(200, line.status());
    assertEquals(2, line.responseBytes());
    assertEquals("127.0.0.1", line.remoteAddress());
    assertEquals(TRACE_ID, line.trace().traceId());
  }
}
