package dev.aerun.apihost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.appengine.api.memcache.MemcacheServicePb.MemcacheGetRequest;
import com.google.appengine.api.memcache.MemcacheServicePb.MemcacheGetResponse;
import com.google.appengine.api.memcache.MemcacheServicePb.MemcacheSetRequest;
import com.google.appengine.repackaged.com.google.protobuf.ByteString;
import com.google.apphosting.base.protos.api_bytes.RemoteApiPb;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The host with Google's real local services, spoken to over real sockets. */
class LocalApiHostTest {
  private static final String SECRET = "test-secret-1234";
  private final HttpClient http = HttpClient.newHttpClient();
  @TempDir Path tmp;
  private LocalApiHost host;

  @BeforeEach
  void start() throws Exception {
    Files.createDirectories(tmp.resolve("app/WEB-INF"));
    host = LocalApiHost.start(options(), SECRET);
  }

  @AfterEach
  void stop() throws Exception {
    host.stop();
  }

  private HostOptions options() {
    return HostOptions.parse(
        List.of(
            "--app-dir", tmp.resolve("app").toString(),
            "--storage", tmp.resolve("data").toString(),
            "--app-id", "testapp"));
  }

  private HttpResponse<byte[]> post(byte[] body, String secret) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + host.port() + "/rpc_http"))
            .header("X-Google-RPC-Service-Endpoint", "app-engine-apis")
            .header("X-Google-RPC-Service-Method", "/VMRemoteAPI.CallRemoteAPI")
            .header("X-Google-RPC-Service-Deadline", "5.0")
            .header("Content-Type", "application/octet-stream")
            .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    if (secret != null) {
      request.header(GuardHandler.SECRET_HEADER, secret);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  private RemoteApiPb.Response call(String service, String method, byte[] payload)
      throws Exception {
    byte[] envelope =
        RemoteApiPb.Request.newBuilder()
            .setServiceName(service)
            .setMethod(method)
            .setRequest(ByteString.copyFrom(payload))
            .setRequestId("ticket-1")
            .build()
            .toByteArray();
    HttpResponse<byte[]> response = post(envelope, SECRET);
    assertEquals(200, response.statusCode());
    return RemoteApiPb.Response.parseFrom(response.body());
  }

  @Test
  void memcacheSetThenGet() throws Exception {
    MemcacheSetRequest set =
        MemcacheSetRequest.newBuilder()
            .addItem(
                MemcacheSetRequest.Item.newBuilder()
                    .setKey(ByteString.copyFromUtf8("k"))
                    .setValue(ByteString.copyFromUtf8("v"))
                    .setSetPolicy(MemcacheSetRequest.SetPolicy.SET))
            .build();
    assertFalse(call("memcache", "Set", set.toByteArray()).hasRpcError());
    RemoteApiPb.Response got =
        call(
            "memcache",
            "Get",
            MemcacheGetRequest.newBuilder()
                .addKey(ByteString.copyFromUtf8("k"))
                .build()
                .toByteArray());
    MemcacheGetResponse items = MemcacheGetResponse.parseFrom(got.getResponse());
    assertEquals(1, items.getItemCount());
    assertEquals("v", items.getItem(0).getValue().toStringUtf8());
  }

  @Test
  void unknownService_isCallNotFound() throws Exception {
    RemoteApiPb.Response response = call("no_such_service", "Call", new byte[0]);
    assertTrue(response.hasRpcError());
    assertEquals(
        RemoteApiPb.RpcError.ErrorCode.CALL_NOT_FOUND.getNumber(),
        response.getRpcError().getCode());
  }

  @Test
  void unknownQueue_isTheServicesApplicationError() throws Exception {
    // TaskQueueAddRequest {queue_name = 1: "nope", task_name = 2: "", eta_usec = 3: 0, url = 4:
    // "/t"}
    byte[] add = {0x0a, 4, 'n', 'o', 'p', 'e', 0x12, 0, 0x18, 0, 0x22, 2, '/', 't'};
    RemoteApiPb.Response response = call("taskqueue", "Add", add);
    assertTrue(response.hasApplicationError(), response.toString());
    assertFalse(response.hasRpcError());
  }

  @Test
  void withoutTheSecret_isRefused() throws Exception {
    assertEquals(403, post(new byte[0], null).statusCode());
    assertEquals(403, post(new byte[0], "wrong").statusCode());
  }

  @Test
  void withANonLoopbackHost_isRefused() throws Exception {
    assertTrue(rawStatus("evil.example:80").startsWith("HTTP/1.1 403"));
    assertTrue(rawStatus("127.0.0.1.evil.example").startsWith("HTTP/1.1 403"));
    assertTrue(rawStatus("localhost:" + host.port()).startsWith("HTTP/1.1 400"));
  }

  /** A request with the secret but headers that are not the protocol's: only the Host varies. */
  private String rawStatus(String hostHeader) throws Exception {
    try (Socket socket = new Socket("127.0.0.1", host.port())) {
      OutputStream out = socket.getOutputStream();
      out.write(
          ("POST /rpc_http HTTP/1.1\r\nHost: "
                  + hostHeader
                  + "\r\n"
                  + GuardHandler.SECRET_HEADER
                  + ": "
                  + SECRET
                  + "\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = socket.getInputStream();
      return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
    }
  }

  @Test
  void loopbackHosts() {
    assertTrue(GuardHandler.isLoopbackHost("localhost"));
    assertTrue(GuardHandler.isLoopbackHost("127.0.0.1:8080"));
    assertTrue(GuardHandler.isLoopbackHost("[::1]:8080"));
    assertFalse(GuardHandler.isLoopbackHost("[::1]x"));
    assertFalse(GuardHandler.isLoopbackHost("localhost.evil.example"));
    assertFalse(GuardHandler.isLoopbackHost("10.0.0.1"));
    assertFalse(GuardHandler.isLoopbackHost(null));
  }
}
