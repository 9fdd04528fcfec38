package dev.aerun.rpc.front;

import dev.aerun.rpc.proto.EvaluationRuntimeGrpc;
import dev.aerun.rpc.proto.UPRequest;
import dev.aerun.rpc.proto.UPResponse;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

/**
 * An {@code EvaluationRuntime} that records every request and answers as the test says: a stand-in
 * for the real runtime, so the front end is tested on its own.
 */
final class FakeRuntime extends EvaluationRuntimeGrpc.EvaluationRuntimeImplBase {
  private final BlockingQueue<UPRequest> requests = new LinkedBlockingQueue<>();
  private volatile BiConsumer<UPRequest, StreamObserver<UPResponse>> behaviour =
      (request, observer) -> answer(observer, ok(200, "hello"));

  /** Answers every request with {@code response}. */
  void answerWith(UPResponse response) {
    behaviour = (request, observer) -> answer(observer, response);
  }

  /** Answers as {@code then} decides, e.g. with an error or not at all. */
  void answerWith(BiConsumer<UPRequest, StreamObserver<UPResponse>> then) {
    behaviour = then;
  }

  @Override
  public void handleRequest(UPRequest request, StreamObserver<UPResponse> observer) {
    requests.add(request);
    behaviour.accept(request, observer);
  }

  /** The next request the runtime received; fails if none comes within 10 s. */
  UPRequest nextRequest() throws InterruptedException {
    UPRequest request = requests.poll(10, TimeUnit.SECONDS);
    if (request == null) {
      throw new AssertionError("the runtime received no request");
    }
    return request;
  }

  /** Whether a request reached the runtime. */
  boolean receivedAny() {
    return !requests.isEmpty();
  }

  static UPResponse ok(int status, String body) {
    return UPResponse.newBuilder()
        .setHttpStatus(status)
        .addHeaders(header("Content-Type", "text/plain;charset=utf-8"))
        .setBody(com.google.protobuf.ByteString.copyFromUtf8(body))
        .build();
  }

  static dev.aerun.rpc.proto.HttpHeader header(String name, String value) {
    return dev.aerun.rpc.proto.HttpHeader.newBuilder().setName(name).setValue(value).build();
  }

  private static void answer(StreamObserver<UPResponse> observer, UPResponse response) {
    observer.onNext(response);
    observer.onCompleted();
  }
}
