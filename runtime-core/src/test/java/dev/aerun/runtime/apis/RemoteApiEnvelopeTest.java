package dev.aerun.runtime.apis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.appengine.repackaged.com.google.protobuf.ByteString;
import com.google.apphosting.base.protos.TraceId.TraceIdProto;
import com.google.apphosting.base.protos.TracePb.TraceContextProto;
import com.google.apphosting.base.protos.api_bytes.RemoteApiPb;
import dev.aerun.runtime.contract.TraceContext;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The hand-written envelope against Google's own generated classes of {@code remote_api.proto}. */
class RemoteApiEnvelopeTest {
  @Test
  void request_parsesWithGooglesClasses() throws Exception {
    byte[] payload = new byte[300];
    for (int i = 0; i < payload.length; i++) {
      payload[i] = (byte) i;
    }
    TraceContext trace =
        new TraceContext("0123456789abcdef0123456789abcdef", "00000000000004d2", true);
    byte[] bytes = RemoteApiEnvelope.request("datastore_v3", "Get", payload, "ticket-é", trace);

    RemoteApiPb.Request parsed = RemoteApiPb.Request.parseFrom(bytes);
    assertEquals("datastore_v3", parsed.getServiceName());
    assertEquals("Get", parsed.getMethod());
    assertArrayEquals(payload, parsed.getRequest().toByteArray());
    assertEquals("ticket-é", parsed.getRequestId());
    TraceContextProto traceProto = TraceContextProto.parseFrom(parsed.getTraceContext());
    assertEquals(1234L, traceProto.getSpanId());
    assertEquals(1, traceProto.getTraceMask());
    TraceIdProto id = TraceIdProto.parseFrom(traceProto.getTraceId());
    assertEquals(0x0123456789abcdefL, id.getHi());
    assertEquals(0x0123456789abcdefL, id.getLo());
  }

  @Test
  void request_withoutTicketOrTrace() throws Exception {
    byte[] bytes = RemoteApiEnvelope.request("memcache", "Get", new byte[0], null, null);
    RemoteApiPb.Request parsed = RemoteApiPb.Request.parseFrom(bytes);
    assertEquals("memcache", parsed.getServiceName());
    assertFalse(parsed.hasRequestId());
    assertFalse(parsed.hasTraceContext());
    assertTrue(parsed.hasRequest());
  }

  @Test
  void reply_readsResponse() {
    byte[] payload = "hello".getBytes(StandardCharsets.UTF_8);
    byte[] bytes =
        RemoteApiPb.Response.newBuilder()
            .setResponse(ByteString.copyFrom(payload))
            .setJavaException(ByteString.copyFrom(new byte[] {1, 2, 3}))
            .build()
            .toByteArray();
    RemoteApiEnvelope.Reply reply = RemoteApiEnvelope.reply(bytes, bytes.length);
    assertArrayEquals(payload, reply.response());
    assertFalse(reply.applicationError());
    assertFalse(reply.rpcError());
  }

  @Test
  void reply_readsApplicationError() {
    byte[] bytes =
        RemoteApiPb.Response.newBuilder()
            .setApplicationError(
                RemoteApiPb.ApplicationError.newBuilder().setCode(7).setDetail("no such queue"))
            .build()
            .toByteArray();
    RemoteApiEnvelope.Reply reply = RemoteApiEnvelope.reply(bytes, bytes.length);
    assertTrue(reply.applicationError());
    assertEquals(7, reply.code());
    assertEquals("no such queue", reply.detail());
  }

  @Test
  void reply_readsRpcError() {
    byte[] bytes =
        RemoteApiPb.Response.newBuilder()
            .setRpcError(RemoteApiPb.RpcError.newBuilder().setCode(12).setDetail("late"))
            .build()
            .toByteArray();
    RemoteApiEnvelope.Reply reply = RemoteApiEnvelope.reply(bytes, bytes.length);
    assertTrue(reply.rpcError());
    assertEquals(RemoteApiEnvelope.DEADLINE_EXCEEDED, reply.code());
    assertEquals("late", reply.detail());
  }

  @Test
  void reply_refusesTruncatedBytes() {
    byte[] bytes =
        RemoteApiPb.Response.newBuilder()
            .setResponse(ByteString.copyFrom(new byte[50]))
            .build()
            .toByteArray();
    assertThrows(IllegalArgumentException.class, () -> RemoteApiEnvelope.reply(bytes, 20));
    assertThrows(
        IllegalArgumentException.class, () -> RemoteApiEnvelope.reply(new byte[] {(byte) 0xff}, 1));
  }

  @Test
  void apiHost_parsesAndHidesItsSecret() {
    ApiHost host = ApiHost.parse("[::1]:8089", "test").withSecret("s3cret");
    assertEquals("::1", host.host());
    assertEquals("[::1]:8089", host.authority());
    assertFalse(host.toString().contains("s3cret"));
    assertThrows(IllegalArgumentException.class, () -> ApiHost.parse("host", "test"));
    assertThrows(IllegalArgumentException.class, () -> ApiHost.parse("host:0", "test"));
  }

  @Test
  void deadlines_followThePlatformAndTheRequest() {
    assertEquals(60.0, ApiDeadlines.of("datastore_v3", null, 1000));
    assertEquals(10.0, ApiDeadlines.of("memcache", null, 1000));
    assertEquals(10.0, ApiDeadlines.of("memcache", 30, 1000));
    assertEquals(30.0, ApiDeadlines.of("taskqueue", 45, 1000));
    assertEquals(2.5, ApiDeadlines.of("datastore_v3", 5, 2.5));
  }
}
