package dev.aerun.runtime.apis;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
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
    Future<byte[]> future = call(request, service, method, payload, deadline);
    try {
      return future.get();
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException runtime) {
        throw runtime;
      }
      if (cause instanceof Error error) {
        throw error;
      }
      throw exceptions.failed(service, method);
    } catch (InterruptedException e) {
      // As the platform: the interrupt is reported, not kept for the next call to trip on.
      throw exceptions.cancelled(service, method, "the calling thread was interrupted");
    }
  }

  /**
   * A call in flight: the future completes with the service's response or, exceptionally, with the
   * SDK's exception ({@link Future#get()} throws it as the cause of its {@link
   * ExecutionException}).
   */
  Future<byte[]> call(
      RequestEnvironment request, String service, String method, byte[] payload, Number deadline) {
    if (client == null) {
      return CompletableFuture.failedFuture(
          exceptions.featureNotEnabled(RemoteServices.unavailable(service, method)));
    }
    if (request != null && request.ended()) {
      return CompletableFuture.failedFuture(
          exceptions.cancelled(
              service, method, "the request this call belongs to has already ended"));
    }
    double seconds =
        ApiDeadlines.of(
            service, deadline, request == null ? Double.MAX_VALUE : request.secondsLeft());
    if (seconds <= 0) {
      return CompletableFuture.failedFuture(exceptions.deadlineExceeded(service, method));
    }
    long start = System.nanoTime();
    if (request != null && !request.acquireCallSlot((long) (seconds * 1000))) {
      return CompletableFuture.failedFuture(
          exceptions.cancelled(
              service,
              method,
              "no room for it within its deadline: "
                  + RequestEnvironment.MAX_CALLS_IN_FLIGHT
                  + " calls of this request were in flight"));
    }
    // Waiting for a slot used up part of the deadline.
    seconds -= (System.nanoTime() - start) / 1e9;
    CompletableFuture<RemoteApiEnvelope.Reply> sent;
    try {
      sent =
          client.send(
              RemoteApiEnvelope.request(
                  service,
                  method,
                  payload,
                  request == null ? null : request.ticket(),
                  request == null ? null : request.trace()),
              Math.max(seconds, 0.001));
    } catch (RuntimeException e) {
      if (request != null) {
        request.releaseCallSlot();
      }
      return CompletableFuture.failedFuture(exceptions.failed(service, method));
    }
    return sent.handle(
        (reply, error) -> {
          if (request != null) {
            request.releaseCallSlot();
          }
          if (error != null) {
            throw failure(service, method, error);
          }
          if (reply.applicationError()) {
            throw exceptions.applicationError(service, method, reply.code(), reply.detail());
          }
          if (reply.rpcError()) {
            throw exceptions.rpcError(service, method, reply.code(), reply.detail());
          }
          return reply.response();
        });
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
