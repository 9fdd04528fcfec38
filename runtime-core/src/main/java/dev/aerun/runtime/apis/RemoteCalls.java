package dev.aerun.runtime.apis;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;

/**
 * The app's remote {@code ApiProxy} calls, sent to the API host: the deadline (the app's or the
 * service's, within the time left in the request), the ticket and trace of the request, at most
 * {@link RequestEnvironment#MAX_CALLS_IN_FLIGHT} calls of one request in flight, and every outcome
 * in the SDK's own exception types. Without a host, every call fails at once with {@code
 * FeatureNotEnabledException} naming the service's replacement and how to name a host.
 */
final class RemoteCalls {
  private final ApiHostClient client;
  private final SdkExceptions exceptions;

  /**
   * @param client the API host's client, or null when there is none
   */
  RemoteCalls(ApiHostClient client, SdkExceptions exceptions) {
    this.client = client;
    this.exceptions = exceptions;
  }

  /** A call that waits for its answer: the service's response, or the SDK's exception thrown. */
  byte[] callBlocking(
      RequestEnvironment request, String service, String method, byte[] payload, Number deadline) {
    Prepared call = prepare(request, service, method, payload, deadline);
    try {
      return answer(service, method, client.sendBlocking(call.envelope(), call.seconds()));
    } catch (ApiHostClient.CallFailure e) {
      throw failure(service, method, e);
    } catch (InterruptedException e) {
      // As the platform: the interrupt is reported, not kept for the next call to trip on.
      throw exceptions.cancelled(service, method, "the calling thread was interrupted");
    } finally {
      call.release();
    }
  }

  /**
   * A call in flight: the future completes with the service's response or, exceptionally, with the
   * SDK's exception ({@link Future#get()} throws it as the cause of its {@code
   * ExecutionException}).
   */
  Future<byte[]> call(
      RequestEnvironment request, String service, String method, byte[] payload, Number deadline) {
    Prepared call;
    try {
      call = prepare(request, service, method, payload, deadline);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
    CompletableFuture<RemoteApiEnvelope.Reply> sent;
    try {
      sent = client.send(call.envelope(), call.seconds());
    } catch (RuntimeException e) {
      call.release();
      return CompletableFuture.failedFuture(exceptions.failed(service, method));
    }
    return sent.handle(
        (reply, error) -> {
          call.release();
          if (error != null) {
            throw failure(service, method, error);
          }
          return answer(service, method, reply);
        });
  }

  /** A call ready to send, holding one of its request's call slots until {@link #release}. */
  private record Prepared(RequestEnvironment request, byte[] envelope, double seconds) {
    void release() {
      if (request != null) {
        request.releaseCallSlot();
      }
    }
  }

  /**
   * Checks that the call may go (a host, a request still running, time left, a free slot) and
   * encodes it; throws the SDK's exception when it may not.
   */
  private Prepared prepare(
      RequestEnvironment request, String service, String method, byte[] payload, Number deadline) {
    if (client == null) {
      throw exceptions.featureNotEnabled(RemoteServices.unavailable(service, method));
    }
    if (request != null && request.ended()) {
      throw exceptions.cancelled(
          service, method, "the request this call belongs to has already ended");
    }
    double seconds =
        ApiDeadlines.of(
            service, deadline, request == null ? Double.MAX_VALUE : request.secondsLeft());
    if (seconds <= 0) {
      throw exceptions.deadlineExceeded(service, method);
    }
    if (request != null) {
      long start = System.nanoTime();
      if (!request.acquireCallSlot((long) (seconds * 1000))) {
        throw exceptions.cancelled(
            service,
            method,
            "no room for it within its deadline: "
                + RequestEnvironment.MAX_CALLS_IN_FLIGHT
                + " calls of this request were in flight");
      }
      // Waiting for a slot used up part of the deadline.
      seconds = Math.max(seconds - (System.nanoTime() - start) / 1e9, 0.001);
    }
    try {
      return new Prepared(
          request,
          RemoteApiEnvelope.request(
              service,
              method,
              payload,
              request == null ? null : request.ticket(),
              request == null ? null : request.trace()),
          seconds);
    } catch (RuntimeException e) {
      if (request != null) {
        request.releaseCallSlot();
      }
      throw exceptions.failed(service, method);
    }
  }

  /** The service's response, or its error as the SDK's exception. */
  private byte[] answer(String service, String method, RemoteApiEnvelope.Reply reply) {
    if (reply.applicationError()) {
      throw exceptions.applicationError(service, method, reply.code(), reply.detail());
    }
    if (reply.rpcError()) {
      throw exceptions.rpcError(service, method, reply.code(), reply.detail());
    }
    return reply.response();
  }

  private RuntimeException failure(String service, String method, Throwable error) {
    Throwable cause = error.getCause() != null ? error.getCause() : error;
    if (cause instanceof ApiHostClient.CallFailure failure) {
      return switch (failure.failure) {
        case TIMEOUT -> exceptions.deadlineExceeded(service, method);
        case TOO_LARGE ->
            exceptions.rpcError(service, method, RemoteApiEnvelope.RESPONSE_TOO_LARGE, "");
        case FAILED -> exceptions.failed(service, method);
      };
    }
    return exceptions.failed(service, method);
  }
}
