package dev.aerun.rpc.front;

import com.google.protobuf.ByteString;
import dev.aerun.rpc.body.BodyBuffer;
import dev.aerun.rpc.proto.EvaluationRuntimeGrpc;
import dev.aerun.rpc.proto.EvaluationRuntimeGrpc.EvaluationRuntimeStub;
import dev.aerun.rpc.proto.UPRequest;
import dev.aerun.rpc.proto.UPResponse;
import dev.aerun.runtime.contract.ContractOptions;
import dev.aerun.runtime.contract.ContractResult;
import dev.aerun.runtime.contract.RequestAttributes;
import dev.aerun.runtime.contract.RequestContract;
import dev.aerun.runtime.contract.RequestLimits;
import dev.aerun.runtime.env.AppEnvironment;
import dev.aerun.runtime.load.BodyMemory;
import dev.aerun.runtime.logging.AccessLog;
import io.grpc.Channel;
import io.grpc.Deadline;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Logger;
import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.http.Trailers;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Legacy mode's front end: applies the request contract, buffers the whole request body, sends it
 * as an {@link UPRequest} to the runtime's {@code EvaluationRuntime.HandleRequest}, and writes the
 * {@link UPResponse} back.
 *
 * <p>Never blocks a thread: the body is read with {@link Request#read()}/{@link Request#demand} and
 * the call is asynchronous; its answer is written from whichever thread delivers it. Request body
 * limits give the same answers as in HttpConnector mode: a {@code Content-Length} over the limit
 * gets 413 before the body is read; a streamed body that passes the limit is cut at the limit and
 * sent with {@code body_over_limit}, so the app's read fails at the same point as it would there. A
 * body whose framing is malformed is sent as far as it was read, with {@code body_error_status}:
 * the app's read fails there as it would in HttpConnector mode. Either way the response closes the
 * connection, as HttpConnector mode's does, since the rest of the body was never read.
 *
 * <p>Failures become the server's error pages, which carry no details: 503 when the runtime is
 * unreachable or serves no such app, 504 past the deadline, 500 otherwise. The cause is logged
 * here.
 */
public final class FrontHandler extends Handler.Abstract {
  private static final Logger log = Logger.getLogger(FrontHandler.class.getName());

  private final RequestContract contract;
  private final long bodyLimit;
  private final AppEnvironment environment;
  private final EvaluationRuntimeStub runtime;
  private final AppLogLines appLogLines;
  private final long callTimeoutNanos;
  private final BodyMemory memory;

  /**
   * @param runtime the channel to the runtime's {@code EvaluationRuntime} service
   * @param contract trust policy and header visibility, as in HttpConnector mode
   * @param limits the request body limit (the runtime enforces the response limit)
   * @param environment the app, version and service ids sent with every request
   * @param logAppLines whether the app's log lines that come back with a response are logged here;
   *     false when the runtime shares this JVM and its logging already printed them
   * @param callTimeout the deadline of a call whose request has none of its own
   * @param memory the JVM's budget for buffered bodies: each request body reserves from its request
   *     pool, waiting its turn when it is full, and each response from its response pool
   */
  public FrontHandler(
      Channel runtime,
      ContractOptions contract,
      RequestLimits limits,
      AppEnvironment environment,
      boolean logAppLines,
      Duration callTimeout,
      BodyMemory memory) {
    this.contract = new RequestContract(contract);
    this.bodyLimit = limits.requestBodyLimit();
    this.environment = environment;
    this.runtime = EvaluationRuntimeGrpc.newStub(runtime);
    this.appLogLines = logAppLines ? new AppLogLines() : null;
    this.callTimeoutNanos = callTimeout.toNanos();
    this.memory = memory;
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    ContractResult result = contract.apply(request);
    // The app's request lives on the runtime; these attributes are for the front's request log
    // (trace, and the client address the app sees), as HttpConnector mode's request log has them.
    RequestAttributes.setAll(request, result);
    if (result.remoteAddressFromHeader()) {
      request.setAttribute(
          AccessLog.REMOTE_ADDRESS_ATTRIBUTE, result.remoteAddress().getAddress().getHostAddress());
    }
    long contentLength = request.getHeaders().getLongField(HttpHeader.CONTENT_LENGTH);
    if (bodyLimit >= 0 && contentLength > bodyLimit) {
      // What SizeLimitHandler answers in HttpConnector mode, before any body is read.
      Response.writeError(request, response, callback, HttpStatus.PAYLOAD_TOO_LARGE_413);
      return true;
    }
    if (!memory.requests().canEverFit(contentLength)) {
      // No wait would help: the body is larger than this heap can ever buffer.
      overloaded(request, response, callback);
      return true;
    }
    Exchange exchange = new Exchange(request, response, callback, result, contentLength);
    exchange.readBody();
    return true;
  }

  /** 503 with Retry-After, closing the connection since the body is not read. */
  private static void overloaded(Request request, Response response, Callback callback) {
    response.getHeaders().put(HttpHeader.RETRY_AFTER, "1");
    response.getHeaders().put(HttpHeader.CONNECTION, "close");
    Response.writeError(request, response, callback, HttpStatus.SERVICE_UNAVAILABLE_503);
  }

  /** What became of a chunk's bytes. */
  private enum Appended {
    WHOLE,
    OVER_LIMIT,
    NO_MEMORY
  }

  /** One request on its way: body buffering, the call, the answer. */
  private final class Exchange implements ClientResponseObserver<UPRequest, UPResponse> {
    /** The most a Java array holds: a body limit above it, or none, is capped here. */
    private static final int MAX_ARRAY = Integer.MAX_VALUE - 8;

    private final Request request;
    private final Response response;
    private final Callback callback;
    private final ContractResult result;
    private final int cap;
    private final AtomicBoolean answered = new AtomicBoolean();
    private final long contentLength;
    private final BodyBuffer body = new BodyBuffer(memory.requests());
    private HttpFields trailers;
    // Guarded by this.
    private long responseReserved;
    private boolean released;
    private volatile boolean bodyUnfinished;
    private volatile ClientCallStreamObserver<UPRequest> call;

    Exchange(
        Request request,
        Response response,
        Callback callback,
        ContractResult result,
        long contentLength) {
      this.request = request;
      this.response = response;
      this.result = result;
      this.cap = (int) Math.min(bodyLimit < 0 ? MAX_ARRAY : bodyLimit, MAX_ARRAY);
      this.contentLength = contentLength;
      // The buffered bodies are held until the client has the whole response: then their memory
      // goes back to the budget.
      this.callback =
          new Callback.Nested(callback) {
            @Override
            public void succeeded() {
              releaseMemory();
              super.succeeded();
            }

            @Override
            public void failed(Throwable failure) {
              releaseMemory();
              logAnswered(failure);
              super.failed(failure);
            }
          };
    }

    /**
     * Jetty answers a request failed before its response began with an error page (500 unless the
     * failure carries a status); the cause is logged here, since the error page shows none. A
     * request whose connection is closed is answered nothing, and not logged.
     */
    private void logAnswered(Throwable failure) {
      if (response.isCommitted()
          || !request.getConnectionMetaData().getConnection().getEndPoint().isOpen()) {
        return;
      }
      int status =
          failure instanceof HttpException http
              ? http.getCode()
              : HttpStatus.INTERNAL_SERVER_ERROR_500;
      log.warning(
          String.format(
              "%s %s failed before its response began; answered %d: %s",
              request.getMethod(), request.getHttpURI().getPath(), status, failure));
    }

    private synchronized void releaseMemory() {
      released = true;
      body.release();
      if (responseReserved > 0) {
        memory.responses().release(responseReserved);
        responseReserved = 0;
      }
    }

    /** Counts the runtime's response while this front end holds it, unless the exchange ended. */
    private synchronized void reserveResponse(long bytes) {
      if (!released) {
        responseReserved = bytes;
        memory.responses().reserve(bytes);
      }
    }

    /** Reads what is available, then asks to be called again when more arrives. */
    void readBody() {
      while (true) {
        Content.Chunk chunk = request.read();
        if (chunk == null) {
          request.demand(this::readBody);
          return;
        }
        if (Content.Chunk.isFailure(chunk)) {
          int status = clientErrorStatus(chunk.getFailure());
          if (status == 0) {
            // The body broke for another reason (idle timeout, reset): Jetty answers or closes.
            callback.failed(chunk.getFailure());
          } else {
            // Malformed framing: in HttpConnector mode the app's read meets this error, so the
            // app runs and its read fails with the status; the runtime does the same.
            send(false, status);
          }
          return;
        }
        if (chunk instanceof Trailers fields) {
          // After a chunked body: what the app may see of them, as in HttpConnector mode.
          trailers = contract.trailers(fields.getTrailers(), result.trustedPeer());
        }
        if (!appendChunk(chunk)) {
          return;
        }
      }
    }

    /**
     * Appends {@code chunk} and sends the request if that was its body's end; false when reading
     * should stop: the request was sent, or the chunk waits for memory (then reading goes on once
     * it is in, or the request gets 503).
     */
    private boolean appendChunk(Content.Chunk chunk) {
      Appended appended = append(chunk.getByteBuffer());
      if (appended == Appended.NO_MEMORY) {
        // The rest of the chunk waits, in arrival order, for memory other requests give back.
        body.awaitRoom(
            request.getComponents().getExecutor(),
            request.getComponents().getScheduler(),
            () -> {
              if (appendChunk(chunk)) {
                readBody();
              }
            },
            () -> {
              chunk.release();
              overloaded();
            });
        return false;
      }
      boolean last = chunk.isLast();
      chunk.release();
      boolean overLimit = appended == Appended.OVER_LIMIT;
      if (overLimit || last) {
        body.finish();
        send(overLimit, 0);
        return false;
      }
      return true;
    }

    /** Copies the chunk's bytes, up to the limit and as far as the memory budget lets it. */
    private Appended append(ByteBuffer bytes) {
      int available = bytes.remaining();
      if (available == 0) {
        return Appended.WHOLE;
      }
      long room = cap - body.size();
      int take = (int) Math.min(available, room);
      long expected = contentLength < 0 ? -1 : contentLength - body.size();
      if (!body.append(bytes, take, expected)) {
        return Appended.NO_MEMORY;
      }
      return available > room ? Appended.OVER_LIMIT : Appended.WHOLE;
    }

    /**
     * The body found no memory in time: 503 with Retry-After, as for any other overload; the
     * connection closes, since the rest of the body is not read.
     */
    private void overloaded() {
      body.release();
      FrontHandler.overloaded(request, response, callback);
    }

    /** The status of a client error that ended the body, or 0 for any other failure. */
    private static int clientErrorStatus(Throwable failure) {
      if (failure instanceof HttpException http) {
        int code = http.getCode();
        return code >= 400 && code < 500 ? code : 0;
      }
      return 0;
    }

    private void send(boolean bodyOverLimit, int bodyErrorStatus) {
      // The blocks are never written again, so the message shares them rather than copy them.
      ByteString bytes = body.toByteString();
      // Part of the client's body stays unread: the connection cannot carry another request.
      bodyUnfinished = bodyOverLimit || bodyErrorStatus != 0;
      UPRequest up =
          UpRequests.build(
              request, result, environment, bytes, trailers, bodyOverLimit, bodyErrorStatus);
      // Every call has a deadline: the request's own, else the default, so that no call waits
      // forever on a runtime that stopped answering.
      long remaining =
          result.hasDeadline() ? result.deadlineNanos() - System.nanoTime() : callTimeoutNanos;
      EvaluationRuntimeStub stub =
          runtime.withDeadline(Deadline.after(remaining, TimeUnit.NANOSECONDS));
      request.addFailureListener(this::clientFailed);
      // While the app runs, the connection is idle with nothing to read or write: WaitingIsNotIdle,
      // in front, keeps Jetty's idle timeout from failing it; the call's deadline bounds it.
      stub.handleRequest(up, this);
    }

    @Override
    public void beforeStart(ClientCallStreamObserver<UPRequest> requestStream) {
      call = requestStream;
    }

    /**
     * The client's request failed (the client went away, or the server is stopping and closing
     * connections): the app's work is of no use any more, and nothing is answered.
     */
    private void clientFailed(Throwable failure) {
      ClientCallStreamObserver<UPRequest> running = call;
      if (running != null && answered.compareAndSet(false, true)) {
        running.cancel("client request failed", failure);
        // As in HttpConnector mode, whose app thread writes to a closed connection: the client
        // gets no response. Without the close, Jetty would answer the failure with a 500.
        request.getConnectionMetaData().getConnection().getEndPoint().close(failure);
        callback.failed(failure);
      }
    }

    @Override
    public void onNext(UPResponse up) {
      if (answered.compareAndSet(false, true)) {
        if (appLogLines != null) {
          appLogLines.log(up);
        }
        // The response is held until written: it counts against the budget (it is here already,
        // so it cannot be refused any more).
        reserveResponse(up.getBody().size());
        UpResponses.write(up, request, response, callback, bodyUnfinished);
      }
    }

    @Override
    public void onError(Throwable failure) {
      if (answered.compareAndSet(false, true)) {
        UpResponses.writeFailure(failure, request, response, callback);
      }
    }

    @Override
    public void onCompleted() {
      if (answered.compareAndSet(false, true)) {
        // A unary call always carries a message; the runtime broke the protocol.
        UpResponses.writeFailure(
            new IllegalStateException("the runtime answered without a response"),
            request,
            response,
            callback);
      }
    }
  }
}
