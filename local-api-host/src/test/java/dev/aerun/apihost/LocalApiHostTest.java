package dev.aerun.apihost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.appengine.api.mail.MailServicePb.MailMessage;
import com.google.appengine.api.mail.MailStubServicePb.ClearSentMessagesResponse;
import com.google.appengine.api.mail.MailStubServicePb.GetSentMessagesResponse;
import com.google.appengine.api.memcache.MemcacheServicePb.MemcacheGetRequest;
import com.google.appengine.api.memcache.MemcacheServicePb.MemcacheGetResponse;
import com.google.appengine.api.memcache.MemcacheServicePb.MemcacheSetRequest;
import com.google.appengine.api.taskqueue_bytes.TaskQueuePb.TaskQueueAddRequest;
import com.google.appengine.api.taskqueue_bytes.TaskQueuePb.TaskQueueDeleteRequest;
import com.google.appengine.api.taskqueue_bytes.TaskQueuePb.TaskQueueFetchQueuesRequest;
import com.google.appengine.api.taskqueue_bytes.TaskQueuePb.TaskQueueFetchQueuesResponse;
import com.google.appengine.api.taskqueue_bytes.TaskQueuePb.TaskQueueForceRunRequest;
import com.google.appengine.api.taskqueue_bytes.TaskQueuePb.TaskQueueForceRunResponse;
import com.google.appengine.api.taskqueue_bytes.TaskQueuePb.TaskQueuePurgeQueueRequest;
import com.google.appengine.api.taskqueue_bytes.TaskQueuePb.TaskQueueQueryTasksRequest;
import com.google.appengine.api.taskqueue_bytes.TaskQueuePb.TaskQueueQueryTasksResponse;
import com.google.appengine.api.taskqueue_bytes.TaskQueuePb.TaskQueueServiceError;
import com.google.appengine.repackaged.com.google.protobuf.ByteString;
import com.google.apphosting.base.protos.api_bytes.RemoteApiPb;
import com.sun.net.httpserver.HttpServer;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
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
    // A paused queue: its tasks wait until someone runs them.
    Files.writeString(
        tmp.resolve("app/WEB-INF/queue.xml"),
        "<queue-entries><queue><name>held</name><rate>0/s</rate>"
            + "<retry-parameters><task-retry-limit>7</task-retry-limit></retry-parameters>"
            + "</queue></queue-entries>");
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

  private void addHeldTask(String name, String url) throws Exception {
    RemoteApiPb.Response added =
        call(
            "taskqueue",
            "Add",
            TaskQueueAddRequest.newBuilder()
                .setQueueName(ByteString.copyFromUtf8("held"))
                .setTaskName(ByteString.copyFromUtf8(name))
                .setEtaUsec(System.currentTimeMillis() * 1000 + 3_600_000_000L)
                .setUrl(ByteString.copyFromUtf8(url))
                .setMethod(TaskQueueAddRequest.RequestMethod.POST)
                .setBody(ByteString.copyFromUtf8("payload-" + name))
                .build()
                .toByteArray());
    assertFalse(added.hasApplicationError() || added.hasRpcError(), added.toString());
  }

  private List<TaskQueueQueryTasksResponse.Task> heldTasks() throws Exception {
    RemoteApiPb.Response answer =
        call(
            "taskqueue",
            "QueryTasks",
            TaskQueueQueryTasksRequest.newBuilder()
                .setQueueName(ByteString.copyFromUtf8("held"))
                .setMaxRows(100)
                .build()
                .toByteArray());
    assertFalse(answer.hasApplicationError() || answer.hasRpcError(), answer.toString());
    return TaskQueueQueryTasksResponse.parseFrom(answer.getResponse()).getTaskList();
  }

  @Test
  void fetchQueues_listsQueueXmlsQueuesAndDefault() throws Exception {
    RemoteApiPb.Response answer =
        call(
            "taskqueue",
            "FetchQueues",
            TaskQueueFetchQueuesRequest.newBuilder().setMaxRows(100).build().toByteArray());
    List<TaskQueueFetchQueuesResponse.Queue> queues =
        TaskQueueFetchQueuesResponse.parseFrom(answer.getResponse()).getQueueList();
    assertEquals(
        List.of("default", "held"),
        queues.stream().map(q -> q.getQueueName().toStringUtf8()).sorted().toList());
    TaskQueueFetchQueuesResponse.Queue held =
        queues.stream()
            .filter(q -> q.getQueueName().toStringUtf8().equals("held"))
            .findFirst()
            .orElseThrow();
    assertTrue(held.getPaused());
    assertEquals("0/s", held.getUserSpecifiedRate());
    assertEquals(7, held.getRetryParameters().getRetryLimit());
  }

  @Test
  void queryTasks_forceRun_delete_purge() throws Exception {
    addHeldTask("t1", "/work/one");
    addHeldTask("t2", "/work/two");
    addHeldTask("t3", "/work/three");
    List<TaskQueueQueryTasksResponse.Task> tasks = heldTasks();
    assertEquals(
        List.of("t1", "t2", "t3"),
        tasks.stream().map(t -> t.getTaskName().toStringUtf8()).toList());
    assertEquals("/work/one", tasks.get(0).getUrl().toStringUtf8());
    assertEquals("payload-t1", tasks.get(0).getBody().toStringUtf8());
    assertEquals(0, tasks.get(0).getRetryCount());
    assertTrue(tasks.get(0).getEtaUsec() > System.currentTimeMillis() * 1000);

    // The app answers 500: the forced run reaches it, fails, and the task stays with its try.
    List<String> reached = new CopyOnWriteArrayList<>();
    HttpServer app = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    app.createContext(
        "/",
        exchange -> {
          reached.add(exchange.getRequestMethod() + " " + exchange.getRequestURI());
          exchange.sendResponseHeaders(500, -1);
          exchange.close();
        });
    app.start();
    try {
      HttpResponse<String> told =
          http.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + host.port() + "/_aerun/app"))
                  .header(GuardHandler.SECRET_HEADER, SECRET)
                  .POST(
                      HttpRequest.BodyPublishers.ofString(
                          Integer.toString(app.getAddress().getPort())))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertEquals(204, told.statusCode());
      RemoteApiPb.Response ran =
          call(
              "taskqueue",
              "ForceRun",
              TaskQueueForceRunRequest.newBuilder()
                  .setQueueName(ByteString.copyFromUtf8("held"))
                  .setTaskName(ByteString.copyFromUtf8("t1"))
                  .build()
                  .toByteArray());
      assertEquals(
          TaskQueueServiceError.ErrorCode.OK,
          TaskQueueForceRunResponse.parseFrom(ran.getResponse()).getResult());
    } finally {
      app.stop(0);
    }
    assertEquals(List.of("POST /work/one"), reached);
    TaskQueueQueryTasksResponse.Task t1 =
        heldTasks().stream()
            .filter(t -> t.getTaskName().toStringUtf8().equals("t1"))
            .findFirst()
            .orElseThrow();
    assertEquals(1, t1.getRetryCount());
    assertEquals(500, t1.getRunLog().getResponseCode());

    RemoteApiPb.Response unknown =
        call(
            "taskqueue",
            "ForceRun",
            TaskQueueForceRunRequest.newBuilder()
                .setQueueName(ByteString.copyFromUtf8("held"))
                .setTaskName(ByteString.copyFromUtf8("nope"))
                .build()
                .toByteArray());
    assertEquals(
        TaskQueueServiceError.ErrorCode.UNKNOWN_TASK,
        TaskQueueForceRunResponse.parseFrom(unknown.getResponse()).getResult());

    call(
        "taskqueue",
        "Delete",
        TaskQueueDeleteRequest.newBuilder()
            .setQueueName(ByteString.copyFromUtf8("held"))
            .addTaskName(ByteString.copyFromUtf8("t2"))
            .build()
            .toByteArray());
    assertEquals(
        List.of("t1", "t3"),
        heldTasks().stream().map(t -> t.getTaskName().toStringUtf8()).sorted().toList());

    call(
        "taskqueue",
        "PurgeQueue",
        TaskQueuePurgeQueueRequest.newBuilder()
            .setQueueName(ByteString.copyFromUtf8("held"))
            .build()
            .toByteArray());
    assertEquals(List.of(), heldTasks());
  }

  @Test
  void queryTasks_ofAnUnknownQueue_isUnknownQueue() throws Exception {
    RemoteApiPb.Response answer =
        call(
            "taskqueue",
            "QueryTasks",
            TaskQueueQueryTasksRequest.newBuilder()
                .setQueueName(ByteString.copyFromUtf8("nope"))
                .build()
                .toByteArray());
    assertEquals(
        TaskQueueServiceError.ErrorCode.UNKNOWN_QUEUE_VALUE,
        answer.getApplicationError().getCode());
  }

  @Test
  void sentMail_isListed_thenCleared() throws Exception {
    MailMessage message =
        MailMessage.newBuilder()
            .setSender("app@example.com")
            .addTo("someone@example.com")
            .setSubject("<b>hello</b>")
            .setTextBody("body text")
            .build();
    RemoteApiPb.Response sent = call("mail", "Send", message.toByteArray());
    assertFalse(sent.hasApplicationError() || sent.hasRpcError(), sent.toString());
    GetSentMessagesResponse listed =
        GetSentMessagesResponse.parseFrom(
            call("mail", "GetSentMessages", new byte[0]).getResponse());
    assertEquals(1, listed.getSentMessageCount());
    assertEquals("<b>hello</b>", listed.getSentMessage(0).getSubject());
    assertEquals(
        1,
        ClearSentMessagesResponse.parseFrom(
                call("mail", "ClearSentMessages", new byte[0]).getResponse())
            .getMessagesCleared());
    assertEquals(
        0,
        GetSentMessagesResponse.parseFrom(
                call("mail", "GetSentMessages", new byte[0]).getResponse())
            .getSentMessageCount());
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
