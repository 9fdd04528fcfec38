package dev.aerun.rpc.runtime;

import dev.aerun.rpc.proto.EvaluationRuntimeGrpc;
import dev.aerun.rpc.proto.UPRequest;
import dev.aerun.rpc.proto.UPResponse;
import dev.aerun.runtime.load.Capacity;
import io.grpc.Context;
import io.grpc.Deadline;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.io.EofException;

/**
 * The {@code EvaluationRuntime} service of an {@link RpcRuntime}: hands each call to the RPC
 * connector and returns at once. The answer is sent from whichever thread completes the request; no
 * gRPC thread ever waits for the app.
 *
 * <p>Calls beyond what the runtime's {@link Capacity} runs and queues are answered {@code
 * UNKNOWN_APP} (503 at the front end) at once. A cancelled call (the front end's client went away,
 * or the call's deadline passed) aborts the request as a closed connection would. Nothing in an
 * answer's {@code error_message} comes from an exception: it is one of a few fixed, client-safe
 * phrases.
 */
final class EvaluationRuntimeService extends EvaluationRuntimeGrpc.EvaluationRuntimeImplBase {
  private static final Logger log = Logger.getLogger(EvaluationRuntimeService.class.getName());

  private final RpcRuntime runtime;
  private final int maxCallsInProgress;

  EvaluationRuntimeService(RpcRuntime runtime) {
    this.runtime = runtime;
    Capacity capacity = runtime.spec().capacity();
    // As many calls as the capacity runs and queues: what a front end with the same capacity sends.
    this.maxCallsInProgress =
        (int)
            Math.min(
                Integer.MAX_VALUE,
                (long) capacity.maxConcurrentRequests() + capacity.maxQueuedRequests());
  }

  @Override
  public void handleRequest(UPRequest request, StreamObserver<UPResponse> observer) {
    long receivedNanos = System.nanoTime();
    RpcConnector connector = runtime.runningConnector();
    if (connector == null) {
      send(
          observer,
          RpcConnection.error(
                  UPResponse.Error.UNKNOWN_APP,
                  HttpStatus.SERVICE_UNAVAILABLE_503,
                  "the runtime is not started")
              .build());
      return;
    }
    if (connector.callsInProgress() >= maxCallsInProgress) {
      // More calls than the front end's capacity lets through (a second front end, or one
      // configured for more): refused at once, rather than queued without bound for a thread.
      send(
          observer,
          RpcConnection.error(
                  UPResponse.Error.UNKNOWN_APP,
                  HttpStatus.SERVICE_UNAVAILABLE_503,
                  "the runtime is overloaded")
              .build());
      return;
    }
    Deadline deadline = Context.current().getDeadline();
    AtomicReference<RpcConnection> running = new AtomicReference<>();
    ServerCallStreamObserver<UPResponse> call =
        observer instanceof ServerCallStreamObserver<UPResponse> c ? c : null;
    if (call != null) {
      // Must be set before this method returns; it runs on gRPC's thread when the call ends early.
      call.setOnCancelHandler(() -> cancelled(running.get(), deadline));
    }
    try {
      RpcConnection connection =
          RpcConnection.start(
              connector,
              request,
              receivedNanos,
              runtime.spec().limits().effectiveResponseBodyLimit(),
              response -> send(observer, response));
      running.set(connection);
      if (call != null && call.isCancelled()) {
        // Cancelled before the handler above was set: abort now.
        cancelled(connection, deadline);
      }
    } catch (RuntimeException e) {
      log.log(Level.WARNING, "the runtime failed to run a request", e);
      send(
          observer,
          RpcConnection.error(
                  UPResponse.Error.UNEXPECTED_ERROR,
                  HttpStatus.INTERNAL_SERVER_ERROR_500,
                  "the runtime failed")
              .build());
    }
  }

  private static void cancelled(RpcConnection connection, Deadline deadline) {
    if (connection == null) {
      return;
    }
    boolean expired = deadline != null && deadline.isExpired();
    if (expired) {
      // Usually too late (gRPC already ended the call with DEADLINE_EXCEEDED), but if the call
      // still takes an answer, this is the one.
      connection.answer(
          RpcConnection.error(
              UPResponse.Error.DEADLINE_EXCEEDED,
              HttpStatus.GATEWAY_TIMEOUT_504,
              "the request ran past its deadline"));
    }
    connection.abort(new EofException(expired ? "deadline exceeded" : "call cancelled"));
  }

  private static void send(StreamObserver<UPResponse> observer, UPResponse response) {
    try {
      observer.onNext(response);
      observer.onCompleted();
    } catch (RuntimeException e) {
      // The call ended meanwhile (cancelled, or its deadline passed): nobody waits for the answer.
      log.log(Level.FINE, "answer dropped", e);
    }
  }
}
