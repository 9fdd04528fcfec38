package dev.aerun.rpc.runtime;

import dev.aerun.rpc.proto.UPRequest;
import dev.aerun.rpc.proto.UPResponse;
import dev.aerun.runtime.contract.RequestAttributes;
import dev.aerun.runtime.load.BodyMemory;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.jetty.http.BadMessageException;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.http.MetaData;
import org.eclipse.jetty.http.Trailers;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.AbstractMetaDataConnection;
import org.eclipse.jetty.server.HttpStream;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.internal.HttpChannelState;
import org.eclipse.jetty.util.Attributes;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.VirtualThreads;

/**
 * One {@code HandleRequest} call on the back server: a connection carrying exactly one request,
 * like an HTTP/1.1 connection that closes after its first exchange.
 *
 * <p>It drives a Jetty {@link HttpChannelState} as Jetty's own HTTP/1.1 connection does, but
 * without bytes to parse or generate: the request metadata comes from the {@link UPRequest}
 * (translated by {@link UpRequestTranslator}), the body is served from the message's bytes, and the
 * response Jetty sends to the {@link HttpStream} is captured into a {@link CapturedResponse}. When
 * Jetty completes the stream (the handler's callback completed and the last write finished), the
 * {@link UPResponse} goes to the {@code answer} consumer, exactly once.
 */
final class RpcConnection extends AbstractMetaDataConnection {
  private static final Logger log = Logger.getLogger(RpcConnection.class.getName());
  private static final AtomicLong IDS = new AtomicLong();

  private final long id = IDS.incrementAndGet();
  private final RpcConnector connector;
  private final RpcEndPoint endPoint;
  private final UpRequestTranslator.Translated request;
  private final long responseLimit;
  private final Consumer<UPResponse> answer;
  private final AtomicBoolean answered = new AtomicBoolean();
  private final Attributes attributes = new Attributes.Lazy();
  private final AppLogCapture.Lines logs = new AppLogCapture.Lines();
  private final Stream stream = new Stream();
  private final CapturedResponse response = new CapturedResponse(BodyMemory.forThisJvm());

  // Guarded by stream: the request body still to read (its blocks, in order: see BodyBuffer),
  // and the response state.
  private final ArrayDeque<ByteBuffer> body;
  private HttpFields trailers;

  /** Non-zero when the app's read past the body must fail with this status (see read()). */
  private final int bodyFailureStatus;

  private boolean bodyRead;
  private boolean bodyFailureReported;
  private boolean lastSent;
  private boolean bodyTooLargeForMessage;

  /** Bytes the app tried to write, counted before the size limit (see ResponseSizeTracker). */
  private final AtomicLong attemptedResponseBytes = new AtomicLong();

  private volatile HttpChannelState channel;
  private volatile Throwable aborted;

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
    this.responseLimit = responseLimit;
    this.answer = answer;
    this.body = new ArrayDeque<>(up.getRequest().getBody().asReadOnlyByteBufferList());
    this.trailers = request.trailers();
    this.bodyFailureStatus = bodyFailureStatus(up.getRequest());
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
    HttpChannelState httpChannel = new HttpChannelState(this);
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
    if (aborted != null) {
      // Cancelled while starting: nobody waits for an answer, the app need not run.
      finish(UPResponse.Error.UNEXPECTED_ERROR, "call cancelled");
      return;
    }
    Request channelRequest = httpChannel.getRequest();
    httpChannel.getComplianceViolationListener().onRequestBegin(channelRequest);
    RequestAttributes.setAll(channelRequest, request.contract());
    Runnable task =
        () -> {
          AppLogCapture.Lines previous = AppLogCapture.bind(logs);
          try {
            handler.run();
          } finally {
            AppLogCapture.restore(previous);
          }
        };
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
   * Aborts the request as a closed client connection would: pending and later reads and writes
   * fail, the request's failure listeners run. The app's threads are not interrupted.
   */
  void abort(Throwable cause) {
    synchronized (stream) {
      if (aborted != null) {
        return;
      }
      aborted = cause;
    }
    HttpChannelState httpChannel = channel;
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
    up.addAllAppLogs(logs.close());
    answer.accept(up.build());
    return true;
  }

  /** Adds bytes the app tries to write, whether or not the size limit lets them through. */
  void countResponseBytes(long bytes) {
    attemptedResponseBytes.addAndGet(bytes);
  }

  private boolean overflowed() {
    return bodyTooLargeForMessage
        || (responseLimit >= 0 && attemptedResponseBytes.get() > responseLimit);
  }

  /** Jetty completed the stream: builds the answer from what was captured. */
  private void complete(Throwable failure) {
    UPResponse.Builder up;
    synchronized (stream) {
      if (response.isCommitted() && lastSent) {
        // The whole response went out, the app's own or Jetty's error page: as in HttpConnector
        // mode, the client gets it, whatever failed afterwards.
        up = response.toUpResponse();
      } else if (response.outOfMemory()) {
        up =
            error(
                UPResponse.Error.OVERLOADED,
                HttpStatus.SERVICE_UNAVAILABLE_503,
                "no memory left for the response");
      } else if (overflowed()) {
        up = error(UPResponse.Error.RESPONSE_TOO_LARGE, 500, "response too large");
      } else if (response.isCommitted()) {
        up = error(UPResponse.Error.APP_FAILURE, 500, "the app failed after its response started");
      } else {
        up = error(UPResponse.Error.UNEXPECTED_ERROR, 500, "the request failed");
      }
    }
    if (failure != null && aborted == null && log.isLoggable(Level.FINE)) {
      log.log(Level.FINE, "request " + id + " completed with a failure", failure);
    }
    HttpChannelState httpChannel = channel;
    if (httpChannel != null) {
      // As Jetty's own connections do once a stream completes: an app that kept the request gets
      // "channel already completed" from it instead of a view of a finished exchange.
      httpChannel.recycle();
    }
    closeEndPoint();
    answer(up);
    synchronized (stream) {
      // Handed over: a front end in this process counts the body while it writes it.
      response.release();
    }
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

  /** The request's stream: body from the message, response into the capture. */
  private final class Stream implements HttpStream {
    @Override
    public String getId() {
      return Long.toString(id);
    }

    @Override
    public Content.Chunk read() {
      BadMessageException bodyFailure;
      boolean fails = bodyFailureStatus != 0;
      synchronized (this) {
        Throwable failure = aborted;
        if (failure != null) {
          return Content.Chunk.from(failure, true);
        }
        if (!bodyRead) {
          ByteBuffer bytes = body.poll();
          while (bytes != null && !bytes.hasRemaining()) {
            bytes = body.poll();
          }
          bodyRead = body.isEmpty();
          if (bytes == null) {
            bodyRead = true;
            if (!fails) {
              return endOfBody();
            }
          } else {
            // With trailers, they are the last chunk, as Jetty's parser delivers them.
            return Content.Chunk.from(bytes, bodyRead && !fails && trailers == null);
          }
        }
        if (!fails) {
          return endOfBody();
        }
        if (bodyFailureReported) {
          return null; // the request's failure answers every read from now on
        }
        bodyFailureReported = true;
        if (bodyFailureStatus == HttpStatus.PAYLOAD_TOO_LARGE_413) {
          bodyFailure =
              new BadMessageException(
                  HttpStatus.PAYLOAD_TOO_LARGE_413, "Request body is too large: over the limit");
        } else {
          bodyFailure = new BadMessageException(bodyFailureStatus);
        }
      }
      // The client sent more than the limit, or malformed framing: fail the request as
      // HttpConnector mode's SizeLimitHandler or parser does when the app's read reaches that
      // point, so the app's read ends in the same error.
      HttpChannelState httpChannel = channel;
      if (httpChannel != null) {
        httpChannel.getRequest().fail(bodyFailure);
      }
      return null;
    }

    /** After the body: its trailers once, if any, then the end. Guarded by this. */
    private Content.Chunk endOfBody() {
      HttpFields fields = trailers;
      trailers = null;
      return fields == null ? Content.Chunk.EOF : new Trailers(fields);
    }

    @Override
    public void demand() {
      // Everything there is to read is here already (or a failure is): read again at once.
      HttpChannelState httpChannel = channel;
      Runnable onContent = httpChannel == null ? null : httpChannel.onContentAvailable();
      if (onContent != null) {
        onContent.run();
      }
    }

    @Override
    public void prepareResponse(org.eclipse.jetty.http.HttpFields.Mutable headers) {
      // Nothing protocol specific: the front server frames the response for its client.
    }

    @Override
    public void send(
        MetaData.Request request,
        MetaData.Response metaData,
        boolean last,
        ByteBuffer content,
        Callback callback) {
      Throwable failure;
      synchronized (this) {
        failure = aborted;
        if (failure == null) {
          if (metaData != null && HttpStatus.isInterim(metaData.getStatus())) {
            // 100 Continue or 103 Early Hints: the front end answers with the final response only.
            failure = null;
          } else {
            if (metaData != null && !response.isCommitted()) {
              response.commit(request, metaData);
            }
            if (!response.append(content)) {
              bodyTooLargeForMessage = !response.outOfMemory();
              failure =
                  new BadMessageException(
                      HttpStatus.INTERNAL_SERVER_ERROR_500, "Response body is too large");
            } else if (last) {
              lastSent = true;
            }
          }
        }
      }
      // Buffering never waits, so every write completes at once.
      if (failure == null) {
        callback.succeeded();
      } else {
        callback.failed(failure);
      }
    }

    @Override
    public Runnable cancelSend(Throwable cause, Callback appCallback) {
      // Sends complete before they return: there is never one to cancel.
      return () -> appCallback.failed(cause);
    }

    @Override
    public long getIdleTimeout() {
      return endPoint.getIdleTimeout();
    }

    @Override
    public void setIdleTimeout(long idleTimeoutMs) {
      endPoint.setIdleTimeout(idleTimeoutMs);
    }

    @Override
    public boolean isCommitted() {
      synchronized (this) {
        return response.isCommitted();
      }
    }

    @Override
    public Throwable consumeAvailable() {
      // What the app did not read is simply dropped: it is all in memory already.
      synchronized (this) {
        bodyRead = true;
        body.clear();
        trailers = null;
      }
      return null;
    }

    @Override
    public void succeeded() {
      complete(null);
    }

    @Override
    public void failed(Throwable x) {
      complete(x);
    }
  }
}
