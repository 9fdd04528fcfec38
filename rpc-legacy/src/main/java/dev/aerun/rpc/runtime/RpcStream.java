package dev.aerun.rpc.runtime;

import dev.aerun.rpc.proto.UPResponse;
import dev.aerun.runtime.load.BodyMemory;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.jetty.http.BadMessageException;
import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.http.MetaData;
import org.eclipse.jetty.http.Trailers;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.io.EofException;
import org.eclipse.jetty.server.HttpStream;
import org.eclipse.jetty.util.Callback;

/**
 * The stream of one {@link RpcConnection}'s request: the body comes from the message's bytes, the
 * response Jetty sends is captured into a {@link CapturedResponse}. Jetty completes the stream once
 * the handler's callback completed and the last write finished; the connection then builds its
 * answer from {@link #toUpResponse()}.
 */
final class RpcStream implements HttpStream {
  private final RpcConnection connection;

  /** The failure the app's read meets after the body, or null when the body is whole. */
  private final Throwable bodyFailure;

  /** The response body limit in force, or -1 when lifted. */
  private final long responseLimit;

  /** Bytes the app tried to write, counted before the size limit (see ResponseSizeTracker). */
  private final AtomicLong attemptedResponseBytes = new AtomicLong();

  // Guarded by this: the request body still to read (its blocks, in order: see BodyBuffer), its
  // trailers, and the response state.
  private final ArrayDeque<ByteBuffer> body;
  private HttpFields trailers;
  private boolean bodyRead;
  private final CapturedResponse response;
  private boolean lastSent;
  private boolean bodyTooLargeForMessage;
  private Throwable aborted;
  // A write waiting for memory (see send); guarded by this.
  private Callback waitingSend;

  RpcStream(
      RpcConnection connection,
      List<ByteBuffer> body,
      HttpFields trailers,
      int bodyFailureStatus,
      long responseLimit,
      BodyMemory memory) {
    this.connection = connection;
    this.response = new CapturedResponse(memory);
    this.body = new ArrayDeque<>(body);
    this.trailers = trailers;
    this.bodyFailure = bodyFailure(bodyFailureStatus);
    this.responseLimit = responseLimit;
  }

  /**
   * What the app's read meets where the front end's body ended, as in HttpConnector mode: past the
   * size limit, what Jetty's {@code SizeLimitHandler} fails the read with; at malformed or
   * truncated framing, an {@link java.io.IOException} (an early end of the input, as the servlet
   * API expects from a broken body) that carries the client error's status for the error page.
   */
  private static Throwable bodyFailure(int status) {
    if (status == 0) {
      return null;
    }
    if (status == HttpStatus.PAYLOAD_TOO_LARGE_413) {
      return new HttpException.RuntimeException(
          HttpStatus.PAYLOAD_TOO_LARGE_413, "Request body is too large: over the limit");
    }
    return new BodyEndedException(status);
  }

  /** Marks the stream aborted; false if it was already. */
  synchronized boolean abort(Throwable cause) {
    if (aborted != null) {
      return false;
    }
    aborted = cause;
    return true;
  }

  synchronized boolean isAborted() {
    return aborted != null;
  }

  /** Adds bytes the app tries to write, whether or not the size limit lets them through. */
  void countResponseBytes(long bytes) {
    attemptedResponseBytes.addAndGet(bytes);
  }

  /** The answer for what was captured once Jetty completed the stream. */
  synchronized UPResponse.Builder toUpResponse() {
    if (response.isCommitted() && lastSent) {
      // The whole response went out, the app's own or Jetty's error page: as in HttpConnector
      // mode, the client gets it, whatever failed afterwards.
      return response.toUpResponse();
    }
    if (response.outOfMemory()) {
      return RpcConnection.error(
          UPResponse.Error.OVERLOADED,
          HttpStatus.SERVICE_UNAVAILABLE_503,
          "no memory left for the response");
    }
    if (bodyTooLargeForMessage
        || (responseLimit >= 0 && attemptedResponseBytes.get() > responseLimit)) {
      return RpcConnection.error(UPResponse.Error.RESPONSE_TOO_LARGE, 500, "response too large");
    }
    if (response.isCommitted()) {
      return RpcConnection.error(
          UPResponse.Error.APP_FAILURE, 500, "the app failed after its response started");
    }
    return RpcConnection.error(UPResponse.Error.UNEXPECTED_ERROR, 500, "the request failed");
  }

  @Override
  public String getId() {
    return connection.getId();
  }

  @Override
  public synchronized Content.Chunk read() {
    if (aborted != null) {
      return Content.Chunk.from(aborted, true);
    }
    if (!bodyRead) {
      ByteBuffer bytes = body.poll();
      while (bytes != null && !bytes.hasRemaining()) {
        bytes = body.poll();
      }
      bodyRead = body.isEmpty();
      if (bytes != null) {
        // The bytes the front end read; after them the failure, or the trailers as the last
        // chunk (as Jetty's parser delivers them), or the end.
        return Content.Chunk.from(bytes, bodyRead && bodyFailure == null && trailers == null);
      }
      bodyRead = true;
    }
    return bodyFailure == null ? endOfBody() : failure();
  }

  /** After the body: its trailers once, if any, then the end. Guarded by this. */
  private Content.Chunk endOfBody() {
    HttpFields fields = trailers;
    trailers = null;
    return fields == null ? Content.Chunk.EOF : new Trailers(fields);
  }

  /** The answer was handed over: a front end in this process counts the body while it writes it. */
  synchronized void release() {
    response.release();
  }

  private Content.Chunk failure() {
    return Content.Chunk.from(bodyFailure, true);
  }

  @Override
  public void demand() {
    // Everything there is to read is here already (or a failure is): read again at once.
    connection.contentAvailable();
  }

  @Override
  public void prepareResponse(HttpFields.Mutable headers) {
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
      if (failure == null && !(metaData != null && HttpStatus.isInterim(metaData.getStatus()))) {
        // (100 Continue or 103 Early Hints: the front end answers with the final response only.)
        if (metaData != null && !response.isCommitted()) {
          response.commit(request, metaData);
        }
        if (!response.append(content)) {
          if (response.outOfMemory()) {
            // The rest waits, in arrival order, for memory other responses give back; the write
            // completes then (the app's write waits as it would on a slow client).
            waitingSend = callback;
            response.awaitRoom(
                connection.getConnector().getExecutor(),
                connection.getConnector().getScheduler(),
                () -> send(null, null, last, content, callback),
                () -> outOfRoom(callback));
            return;
          }
          bodyTooLargeForMessage = true;
          failure =
              new BadMessageException(
                  HttpStatus.INTERNAL_SERVER_ERROR_500, "Response body is too large");
        } else if (last) {
          lastSent = true;
          response.finish();
        }
      }
      waitingSend = null;
    }
    if (failure == null) {
      callback.succeeded();
    } else {
      callback.failed(failure);
    }
  }

  /** No memory came for the rest of the response in time: the answer is 503. */
  private void outOfRoom(Callback callback) {
    synchronized (this) {
      if (waitingSend != callback) {
        return; // cancelled meanwhile
      }
      waitingSend = null;
    }
    callback.failed(
        new BadMessageException(HttpStatus.SERVICE_UNAVAILABLE_503, "No memory for the response"));
  }

  @Override
  public Runnable cancelSend(Throwable cause, Callback appCallback) {
    // A send completes before it returns, unless it waits for memory: that wait ends here.
    Callback waiting;
    synchronized (this) {
      waiting = waitingSend;
      waitingSend = null;
    }
    if (waiting != null) {
      response.release();
    }
    return () -> appCallback.failed(cause);
  }

  @Override
  public long getIdleTimeout() {
    return connection.getEndPoint().getIdleTimeout();
  }

  @Override
  public void setIdleTimeout(long idleTimeoutMs) {
    connection.getEndPoint().setIdleTimeout(idleTimeoutMs);
  }

  @Override
  public synchronized boolean isCommitted() {
    return response.isCommitted();
  }

  @Override
  public synchronized Throwable consumeAvailable() {
    // What the app did not read is simply dropped: it is all in memory already.
    bodyRead = true;
    body.clear();
    trailers = null;
    return null;
  }

  @Override
  public void succeeded() {
    connection.complete(null);
  }

  @Override
  public void failed(Throwable x) {
    connection.complete(x);
  }

  /**
   * The request body ended early or broke its framing: an {@link java.io.IOException} to the app,
   * as HttpConnector mode's parser gives it, with the client error's status for the error page.
   */
  static final class BodyEndedException extends EofException implements HttpException {
    private final int status;

    BodyEndedException(int status) {
      super("Request body ended early or was malformed (" + status + ")");
      this.status = status;
    }

    @Override
    public int getCode() {
      return status;
    }

    @Override
    public String getReason() {
      return getMessage();
    }
  }
}
