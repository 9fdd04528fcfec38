package dev.aerun.rpc.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.protobuf.ByteString;
import dev.aerun.rpc.LegacyRpcServer;
import dev.aerun.rpc.proto.EvaluationRuntimeGrpc;
import dev.aerun.rpc.proto.UPRequest;
import dev.aerun.rpc.proto.UPResponse;
import dev.aerun.rpc.transport.RpcChannel;
import dev.aerun.rpc.transport.RpcTransport;
import dev.aerun.runtime.contract.RequestLimits;
import dev.aerun.runtime.load.BodyMemory;
import dev.aerun.runtime.load.Capacity;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The runtime's service over a real loopback socket, with the message size both ends must allow
 * ({@link RpcRuntime#MAX_MESSAGE_BYTES}): bodies at the 32 MiB limit pass both ways, serialized.
 */
class RpcRuntimeOverTcpTest {
  @Test
  void handleRequest_overTcp_bodyAtTheLimitRoundTrips() throws Exception {
    LegacyRpcServer runtime =
        LegacyRpcServer.runtime(
            new LegacyRpcServer.Back(
                new TestApp(),
                RequestLimits.defaults(),
                new Capacity(8, 8, Duration.ofSeconds(1), false)),
            RpcTransport.tcp("127.0.0.1", 0),
            new BodyMemory(1L << 30));
    runtime.start();
    try (RpcChannel channel = runtime.rpcAddress().openChannel(RpcRuntime.MAX_MESSAGE_BYTES)) {
      byte[] body = new byte[(int) RequestLimits.DEFAULT_BODY_LIMIT];
      new Random(7).nextBytes(body);
      UPRequest.Builder up = InProcessRuntime.get("/echo");
      up.getRequestBuilder()
          .setMethod("POST")
          .addHeaders(InProcessRuntime.header("Content-Length", Integer.toString(body.length)))
          .setBody(ByteString.copyFrom(body));

      UPResponse response =
          EvaluationRuntimeGrpc.newBlockingStub(channel.channel())
              .withDeadlineAfter(60, TimeUnit.SECONDS)
              .handleRequest(up.build());

      assertEquals(200, response.getHttpStatus());
      assertArrayEquals(body, response.getBody().toByteArray());
    } finally {
      runtime.stop();
    }
  }
}
