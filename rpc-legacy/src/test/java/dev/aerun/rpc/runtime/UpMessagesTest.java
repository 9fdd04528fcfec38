package dev.aerun.rpc.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.protobuf.ByteString;
import dev.aerun.rpc.proto.AppLogLine;
import dev.aerun.rpc.proto.HttpHeader;
import dev.aerun.rpc.proto.HttpRequest;
import dev.aerun.rpc.proto.TaskInfo;
import dev.aerun.rpc.proto.TraceContext;
import dev.aerun.rpc.proto.UPRequest;
import dev.aerun.rpc.proto.UPResponse;
import dev.aerun.rpc.proto.UserInfo;
import org.junit.jupiter.api.Test;

class UpMessagesTest {
  @Test
  void upRequest_everyFieldSurvivesSerialization() throws Exception {
    UPRequest request =
        UPRequest.newBuilder()
            .setAppId("app")
            .setVersionId("v1")
            .setServiceId("default")
            .setRequestLogId("log")
            .setDefaultVersionHostname("app.example.com")
            .setTrace(
                TraceContext.newBuilder()
                    .setTraceId("0123456789abcdef0123456789abcdef")
                    .setSpanId("000000000000007b")
                    .setSampled(true))
            .setUser(
                UserInfo.newBuilder()
                    .setEmail("u@example.com")
                    .setId("1")
                    .setNickname("u")
                    .setIsAdmin(true)
                    .setAuthDomain("example.com")
                    .setOrganization("org"))
            .setTask(
                TaskInfo.newBuilder()
                    .setQueueName("q")
                    .setTaskName("t")
                    .setRetryCount(-1)
                    .setCron(true))
            .setTimeoutMillis(60_000)
            .setRequest(
                HttpRequest.newBuilder()
                    .setMethod("POST")
                    .setUrl("http://example.com/x?y=%20")
                    .setHttpVersion("HTTP/1.1")
                    .addHeaders(HttpHeader.newBuilder().setName("Host").setValue("example.com"))
                    .addHeaders(HttpHeader.newBuilder().setName("X-A").setValue("1"))
                    .addHeaders(HttpHeader.newBuilder().setName("X-A").setValue("2"))
                    .setBody(ByteString.copyFrom(new byte[] {0, 1, (byte) 0xff}))
                    .setUserIp("2001:db8::1")
                    .setUserPort(0)
                    .setIsHttps(true)
                    .setLocalAddress("10.0.0.1")
                    .setLocalPort(8080)
                    .setTrusted(true)
                    .setChunked(true)
                    .setBodyOverLimit(true)
                    .setBodyErrorStatus(400))
            .build();

    assertEquals(request, UPRequest.parseFrom(request.toByteArray()));
  }

  @Test
  void upResponse_everyFieldSurvivesSerialization() throws Exception {
    UPResponse response =
        UPResponse.newBuilder()
            .setError(UPResponse.Error.RESPONSE_TOO_LARGE)
            .setErrorMessage("response too large")
            .setHttpStatus(500)
            .addHeaders(HttpHeader.newBuilder().setName("Content-Type").setValue("text/plain"))
            .setBody(ByteString.copyFromUtf8("body"))
            .addAppLogs(
                AppLogLine.newBuilder()
                    .setTimestampUsec(1_700_000_000_000_000L)
                    .setLevel(3)
                    .setMessage("broken")
                    .setSourceLocation("app"))
            .setChunked(true)
            .build();

    assertEquals(response, UPResponse.parseFrom(response.toByteArray()));
  }
}
