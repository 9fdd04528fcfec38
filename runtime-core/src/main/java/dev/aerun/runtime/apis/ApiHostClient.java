package dev.aerun.runtime.apis;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Sends remote-API envelopes to one {@link ApiHost}: {@code POST /rpc_http} with the headers an App
 * Engine API host expects ({@code X-Google-RPC-Service-Endpoint: app-engine-apis}, {@code
 * X-Google-RPC-Service-Method: /VMRemoteAPI.CallRemoteAPI}, {@code X-Google-RPC-Service-Deadline}
 * in seconds), over the JDK's HTTP client (nothing on the class path). Thread-safe; one per
 * process, shared by every request and redeploy.
 */
public final class ApiHostClient {
  /** How much longer than a call's deadline its HTTP exchange may take before it is given up. */
  static final Duration HTTP_MARGIN = Duration.ofSeconds(1);

  /** The largest answer read: a service's largest message (50 MiB) and the envelope around it. */
  static final int MAX_REPLY_BYTES = 50 * 1024 * 1024 + 4096;

  /** What {@link #BOUNDED} answers for a body it did not read. */
  private static final byte[] NOT_READ = new byte[0];

  /**
   * Reads a body of at most {@link #MAX_REPLY_BYTES} as its Content-Length says; drops a larger
   * one.
   */
  private static final HttpResponse.BodyHandler<byte[]> BOUNDED =
      info ->
          info.headers().firstValueAsLong("Content-Length").orElse(-1) > MAX_REPLY_BYTES
              ? HttpResponse.BodySubscribers.replacing(NOT_READ)
              : HttpResponse.BodySubscribers.ofByteArray();

  private final ApiHost host;
  private final URI uri;
  private final HttpClient http;

  public ApiHostClient(ApiHost host) {
    this.host = host;
    this.uri = URI.create("http://" + host.authority() + "/rpc_http");
    this.http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
  }

  public ApiHost host() {
    return host;
  }

  /** How one exchange ended when it did not end in an envelope. */
  enum Failure {
    /** No answer within the deadline and its margin. */
    TIMEOUT,
    /** The host could not be reached, or answered with a status other than 200 or no envelope. */
    FAILED,
    /** The answer was larger than {@link #MAX_REPLY_BYTES}. */
    TOO_LARGE
  }

  /** An exchange that ended without an envelope; carries no detail of the host's answer. */
  static final class CallFailure extends RuntimeException {
    final Failure failure;

    CallFailure(Failure failure, String message) {
      super(message, null, false, false);
      this.failure = failure;
    }
  }

  /**
   * One call that belongs to no app request (the development console's): no ticket, no trace, the
   * given deadline. Waits for the answer on the calling thread.
   *
   * @return the service's response message
   * @throws ApiCallException when the service or the host answered with an error, or nothing came
   *     back
   * @throws InterruptedException when the calling thread is interrupted while it waits
   */
  public byte[] callBlocking(String service, String method, byte[] request, double deadlineSeconds)
      throws ApiCallException, InterruptedException {
    RemoteApiEnvelope.Reply reply;
    try {
      reply =
          sendBlocking(
              RemoteApiEnvelope.request(service, method, request, null, null), deadlineSeconds);
    } catch (CallFailure e) {
      throw new ApiCallException(
          service, method, ApiCallException.Kind.FAILED, 0, String.valueOf(e.getMessage()));
    }
    if (reply.applicationError()) {
      throw new ApiCallException(
          service, method, ApiCallException.Kind.APPLICATION_ERROR, reply.code(), reply.detail());
    }
    if (reply.rpcError()) {
      throw new ApiCallException(
          service, method, ApiCallException.Kind.RPC_ERROR, reply.code(), reply.detail());
    }
    return reply.response();
  }

  /**
   * Sends {@code envelope} and waits for the reply on the calling thread (no hand-over to another
   * thread: a synchronous call costs what the exchange costs).
   *
   * @throws CallFailure when the exchange ends without an envelope
   * @throws InterruptedException when the calling thread is interrupted while it waits
   */
  RemoteApiEnvelope.Reply sendBlocking(byte[] envelope, double deadlineSeconds)
      throws InterruptedException {
    HttpResponse<byte[]> response;
    try {
      response = http.send(request(envelope, deadlineSeconds), BOUNDED);
    } catch (IOException e) {
      return reply(null, e);
    }
    return reply(response, null);
  }

  /**
   * Sends {@code envelope}; the future completes with the host's reply, or exceptionally with a
   * {@link CallFailure}.
   */
  CompletableFuture<RemoteApiEnvelope.Reply> send(byte[] envelope, double deadlineSeconds) {
    return http.sendAsync(request(envelope, deadlineSeconds), BOUNDED).handle(ApiHostClient::reply);
  }

  private HttpRequest request(byte[] envelope, double deadlineSeconds) {
    long deadlineMillis = Math.max(1, (long) Math.ceil(deadlineSeconds * 1000));
    HttpRequest.Builder request =
        HttpRequest.newBuilder(uri)
            .timeout(Duration.ofMillis(deadlineMillis).plus(HTTP_MARGIN))
            .header("X-Google-RPC-Service-Endpoint", "app-engine-apis")
            .header("X-Google-RPC-Service-Method", "/VMRemoteAPI.CallRemoteAPI")
            .header("X-Google-RPC-Service-Deadline", Double.toString(deadlineSeconds))
            .header("Content-Type", "application/octet-stream")
            .POST(HttpRequest.BodyPublishers.ofByteArray(envelope));
    if (host.secret() != null) {
      request.header(ApiHost.SECRET_HEADER, host.secret());
    }
    return request.build();
  }

  private static RemoteApiEnvelope.Reply reply(HttpResponse<byte[]> response, Throwable error) {
    if (error != null) {
      Throwable cause =
          error instanceof CompletionException && error.getCause() != null
              ? error.getCause()
              : error;
      if (cause instanceof HttpTimeoutException
          && !(cause instanceof HttpConnectTimeoutException)) {
        throw new CallFailure(Failure.TIMEOUT, "no answer from the API host in time");
      }
      throw new CallFailure(
          Failure.FAILED,
          cause instanceof IOException
              ? "the API host cannot be reached: " + cause.getClass().getSimpleName()
              : "the API call failed: " + cause.getClass().getSimpleName());
    }
    if (response.statusCode() != 200) {
      throw new CallFailure(Failure.FAILED, "the API host answered " + response.statusCode());
    }
    byte[] body = response.body();
    if (body == NOT_READ || body.length > MAX_REPLY_BYTES) {
      throw new CallFailure(Failure.TOO_LARGE, "the API host's answer is too large");
    }
    try {
      return RemoteApiEnvelope.reply(body, body.length);
    } catch (IllegalArgumentException e) {
      throw new CallFailure(Failure.FAILED, "the API host's answer is not an envelope");
    }
  }
}
