package dev.aerun.rpc.runtime;

import dev.aerun.rpc.proto.UPRequest;
import dev.aerun.rpc.proto.UPResponse;
import dev.aerun.runtime.contract.RequestAttributes;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.server.AbstractMetaDataConnection;
import org.eclipse.jetty.server.HttpChannel;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.Attributes;
import org.eclipse.jetty.util.VirtualThreads;

/**
 * One {@code HandleRequest} call on the back server: a connection carrying exactly one request,
 * like an HTTP/1.1 connection that closes after its first exchange.
 *
 * <p>It drives a Jetty {@link HttpChannel} (through its public API only) as Jetty's own HTTP/1.1
 * connection does, but without bytes to parse or generate: the request metadata comes from the
 * {@link UPRequest} (translated by {@link UpRequestTranslator}), and its {@link RpcStream} serves
 * the body from the message's bytes and captures the response. When Jetty completes the stream (the
 * handler's callback completed and the last write finished), the {@link UPResponse} goes to the
 * {@code answer} consumer, exactly once.
 */
final class RpcConnection extends AbstractMetaDataConnection {
  private static final Logger log = Logger.getLogger(RpcConnection.class.getName());
  private static final AtomicLong IDS = new AtomicLong();

  private final long id = IDS.incrementAndGet();
  private final RpcConnector connector;
  private final RpcEndPoint endPoint;
  private final UpRequestTranslator.Translated request;
  private final Consumer<UPResponse> answer;
  private final AtomicBoolean answered = new AtomicBoolean();
  private final Attributes attributes = new Attributes.Lazy();
  private final AppLogCapture.Lines logs;
  private final RpcStream stream;
  private volatile HttpChannel channel;

  private RpcConnection(
      RpcConnector connector,
      RpcEndPoint endPoint,
      UpRequestTranslator.Translated request,
      UPRequest up,
      long responseLimit,
      Consumer<UPResponse> answer) {
    super(connector, connector.httpConfiguration(), endPoint);
    this.connector = connector;
    this.endPoint = endPoint;
    this.request = request;
    this.answer = answer;
    this.logs = connector.capturesAppLogs() ? new AppLogCapture.Lines() : null;
    this.stream =
        new RpcStream(
            this,
            up.getRequest().getBody().asReadOnlyByteBufferList(),
            request.trailers(),
            bodyFailureStatus(up.getRequest()),
            responseLimit,
            connector.bodyMemory());
  }

  /** 413 past the limit, the client error the front end met, or 0 when the body is whole. */
  private static int bodyFailureStatus(dev.aerun.rpc.proto.HttpRequest http) {
    if (http.getBodyOverLimit()) {
      return HttpStatus.PAYLOAD_TOO_LARGE_413;
    }
    int status = http.getBodyErrorStatus();
    if (status == 0) {
      return 0;
    }
    // Only client errors end a body; anything else from the front end is read as a plain 400.
    return status >= 400 && status < 500 ? status : HttpStatus.BAD_REQUEST_400;
  }

  /**
   * Starts running {@code up} on {@code connector}'s server; the handler runs on the connector's
   * executor, never on the calling thread. {@code answer} receives the one response.
   *
   * @param receivedNanos when the call arrived, on the {@link System#nanoTime()} clock
   * @param responseLimit the response body limit in force, or -1 when lifted
   * @return the running call, to abort on cancellation; null if it was answered at once
   */
  static RpcConnection start(
      RpcConnector connector,
      UPRequest up,
      long receivedNanos,
      long responseLimit,
      Consumer<UPResponse> answer) {
    UpRequestTranslator.Translated translated;
    try {
      translated = UpRequestTranslator.translate(up, receivedNanos);
    } catch (UpRequestTranslator.BadRequestException e) {
      answer.accept(
          error(UPResponse.Error.BAD_REQUEST, HttpStatus.BAD_REQUEST_400, "bad request").build());
      return null;
    }
    RpcEndPoint endPoint =
        new RpcEndPoint(
            translated.local(),
            translated.contract().remoteAddress(),
            translated.contract().secure());
    RpcConnection connection =
        new RpcConnection(connector, endPoint, translated, up, responseLimit, answer);
    endPoint.setConnection(connection);
    connector.opened(endPoint);
    connection.run();
    return connection;
  }

  private void run() {
    HttpChannel httpChannel = newHttpChannel();
    httpChannel.initialize();
    httpChannel.setHttpStream(stream);
    Runnable handler;
    try {
      handler = httpChannel.onRequest(request.metaData());
    } catch (RuntimeException e) {
      log.log(Level.WARNING, "cannot start the request", e);
      finish(UPResponse.Error.UNEXPECTED_ERROR, "the runtime could not start the request");
      return;
    }
    channel = httpChannel;
    if (stream.isAborted()) {
      // Cancelled while starting: nobody waits for an answer, the app need not run.
      finish(UPResponse.Error.UNEXPECTED_ERROR, "call cancelled");
      return;
    }
    Request channelRequest = httpChannel.getRequest();
    httpChannel.getComplianceViolationListener().onRequestBegin(channelRequest);
    RequestAttributes.setAll(channelRequest, request.contract());
    Runnable task = logs == null ? handler : () -> runCapturingLogs(handler);
    try {
      // The app may block: on virtual threads when the pool has them, as Jetty's own connectors
      // dispatch blocking handlers.
      VirtualThreads.getExecutor(connector.getExecutor()).execute(task);
    } catch (RejectedExecutionException e) {
      // The pool is stopping: the request never reaches the app.
      abort(e);
      finish(UPResponse.Error.UNKNOWN_APP, "the runtime is not running");
    }
  }

  /**
   * The channel Jetty's connector would make: its bean if one is configured, else Jetty's default.
   */
  private HttpChannel newHttpChannel() {
    HttpChannel.Factory factory = connector.getBean(HttpChannel.Factory.class);
    return (factory != null ? factory : new HttpChannel.DefaultFactory()).newHttpChannel(this);
  }

  private void runCapturingLogs(Runnable handler) {
    AppLogCapture.Lines previous = AppLogCapture.bind(logs);
    try {
      handler.run();
    } finally {
      AppLogCapture.restore(previous);
    }
  }

  /**
   * Aborts the request as a closed client connection would: pending and later reads and writes
   * fail, the request's failure listeners run. The app's threads are not interrupted.
   */
  void abort(Throwable cause) {
    if (!stream.abort(cause)) {
      return;
    }
    HttpChannel httpChannel = channel;
    Runnable task = httpChannel == null ? null : httpChannel.onFailure(cause);
    if (task != null) {
      try {
        connector.getExecutor().execute(task);
      } catch (RejectedExecutionException e) {
        task.run();
      }
    }
  }

  /** The server is stopping with this call in progress: says so, then aborts it. */
  void abortForShutdown(Throwable cause) {
    answer(error(UPResponse.Error.UNKNOWN_APP, HttpStatus.SERVICE_UNAVAILABLE_503, "stopping"));
    abort(cause);
  }

  /** Answers the call with {@code up} unless it was answered already; false if it was. */
  boolean answer(UPResponse.Builder up) {
    if (!answered.compareAndSet(false, true)) {
      return false;
    }
    if (logs != null) {
      up.addAllAppLogs(logs.close());
    }
    answer.accept(up.build());
    return true;
  }

  /** Adds bytes the app tries to write, whether or not the size limit lets them through. */
  void countResponseBytes(long bytes) {
    stream.countResponseBytes(bytes);
  }

  /** The stream has more to read (or a failure): lets Jetty read again at once. */
  void contentAvailable() {
    HttpChannel httpChannel = channel;
    Runnable onContent = httpChannel == null ? null : httpChannel.onContentAvailable();
    if (onContent != null) {
      onContent.run();
    }
  }

  /** Jetty completed the stream: answers with what was captured. */
  void complete(Throwable failure) {
    UPResponse.Builder up = stream.toUpResponse();
    if (failure != null && !stream.isAborted() && log.isLoggable(Level.FINE)) {
      log.log(Level.FINE, "request " + id + " completed with a failure", failure);
    }
    HttpChannel httpChannel = channel;
    if (httpChannel != null) {
      // As Jetty's own connections do once a stream completes: an app that kept the request gets
      // "channel already completed" from it instead of a view of a finished exchange.
      httpChannel.recycle();
    }
    closeEndPoint();
    answer(up);
    stream.release();
  }

  private void finish(UPResponse.Error error, String message) {
    closeEndPoint();
    answer(error(error, error == UPResponse.Error.UNKNOWN_APP ? 503 : 500, message));
  }

  private void closeEndPoint() {
    if (endPoint.isOpen()) {
      endPoint.close();
      connector.closed(endPoint);
    }
  }

  static UPResponse.Builder error(UPResponse.Error error, int status, String message) {
    return UPResponse.newBuilder().setError(error).setHttpStatus(status).setErrorMessage(message);
  }

  // ConnectionMetaData: what the request's connection says about itself.

  @Override
  public String getId() {
    return Long.toString(id);
  }

  @Override
  public HttpVersion getHttpVersion() {
    return request.metaData().getHttpVersion();
  }

  @Override
  public String getProtocol() {
    return getHttpVersion().asString();
  }

  /** One request per connection: never kept alive for another. */
  @Override
  public boolean isPersistent() {
    return false;
  }

  @Override
  public boolean isSecure() {
    return endPoint.isSecure();
  }

  @Override
  public void onFillable() {
    // Never fill interested: the body arrived with the call.
  }

  @Override
  public Object getAttribute(String name) {
    return attributes.getAttribute(name);
  }

  @Override
  public Object setAttribute(String name, Object attribute) {
    return attributes.setAttribute(name, attribute);
  }

  @Override
  public Object removeAttribute(String name) {
    return attributes.removeAttribute(name);
  }

  @Override
  public Set<String> getAttributeNameSet() {
    return attributes.getAttributeNameSet();
  }

  @Override
  public void clearAttributes() {
    attributes.clearAttributes();
  }
}
