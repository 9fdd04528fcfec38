package dev.aerun.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.appengine.api.mail.MailServicePb.MailMessage;
import com.google.appengine.api.mail.MailStubServicePb.GetSentMessagesResponse;
import com.google.appengine.api.memcache.MemcacheServicePb.MemcacheStatsResponse;
import com.google.appengine.api.memcache.MemcacheServicePb.MergedNamespaceStats;
import com.google.appengine.api.taskqueue_bytes.TaskQueuePb.TaskQueueDeleteRequest;
import com.google.appengine.api.taskqueue_bytes.TaskQueuePb.TaskQueueDeleteResponse;
import com.google.appengine.api.taskqueue_bytes.TaskQueuePb.TaskQueueFetchQueueStatsRequest;
import com.google.appengine.api.taskqueue_bytes.TaskQueuePb.TaskQueueFetchQueueStatsResponse;
import com.google.appengine.api.taskqueue_bytes.TaskQueuePb.TaskQueueFetchQueuesRequest;
import com.google.appengine.api.taskqueue_bytes.TaskQueuePb.TaskQueueFetchQueuesResponse;
import com.google.appengine.api.taskqueue_bytes.TaskQueuePb.TaskQueueForceRunRequest;
import com.google.appengine.api.taskqueue_bytes.TaskQueuePb.TaskQueueForceRunResponse;
import com.google.appengine.api.taskqueue_bytes.TaskQueuePb.TaskQueueMode;
import com.google.appengine.api.taskqueue_bytes.TaskQueuePb.TaskQueuePurgeQueueRequest;
import com.google.appengine.api.taskqueue_bytes.TaskQueuePb.TaskQueueQueryTasksRequest;
import com.google.appengine.api.taskqueue_bytes.TaskQueuePb.TaskQueueQueryTasksResponse;
import com.google.appengine.api.taskqueue_bytes.TaskQueuePb.TaskQueueRetryParameters;
import com.google.appengine.api.taskqueue_bytes.TaskQueuePb.TaskQueueServiceError.ErrorCode;
import com.google.appengine.repackaged.com.google.protobuf.ByteString;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The hand-written {@code taskqueue}, {@code memcache} and {@code mail} messages against Google's
 * own classes.
 */
class ServicesTest {
  private final RecordingHost host = new RecordingHost();
  private final List<String> calls = host.calls;
  private final List<byte[]> requests = host.requests;
  private final List<byte[]> answers = host.answers;

  @Test
  void queues_withTheirStats() throws Exception {
    answers.add(
        TaskQueueFetchQueuesResponse.newBuilder()
            .addQueue(
                queue("fast", "20/s", 20, false)
                    .setMaxConcurrentRequests(3)
                    .setRetryParameters(
                        TaskQueueRetryParameters.newBuilder()
                            .setRetryLimit(3)
                            .setMinBackoffSec(0.1)))
            .addQueue(queue("default", "5/s", 5, false))
            .addQueue(queue("held", "0/s", 0, true))
            .build()
            .toByteArray());
    answers.add(
        TaskQueueFetchQueueStatsResponse.newBuilder()
            .addQueueStats(stats(0, -1))
            .addQueueStats(stats(2, 1_000_000))
            .addQueueStats(stats(7, 2_000_000))
            .build()
            .toByteArray());
    List<TaskQueues.Queue> queues = new TaskQueues(host).queuesBlocking();
    assertEquals(List.of("taskqueue.FetchQueues", "taskqueue.FetchQueueStats"), calls);
    assertTrue(TaskQueueFetchQueuesRequest.parseFrom(requests.get(0)).getMaxRows() > 0);
    assertEquals(
        List.of("default", "fast", "held"),
        TaskQueueFetchQueueStatsRequest.parseFrom(requests.get(1)).getQueueNameList().stream()
            .map(ByteString::toStringUtf8)
            .toList());
    assertEquals(
        List.of("default", "fast", "held"), queues.stream().map(TaskQueues.Queue::name).toList());
    TaskQueues.Queue fast = queues.get(1);
    assertEquals("20/s", fast.rate());
    assertEquals(3, fast.maxConcurrentRequests());
    assertEquals("retry limit 3, min backoff 0.1 s", fast.retry());
    assertEquals(2, fast.tasks());
    assertTrue(queues.get(2).paused());
    assertEquals(0, queues.get(0).oldestEtaUsec(), "no tasks: no ETA");
  }

  private static TaskQueueFetchQueuesResponse.Queue.Builder queue(
      String name, String rate, double refill, boolean paused) {
    return TaskQueueFetchQueuesResponse.Queue.newBuilder()
        .setQueueName(ByteString.copyFromUtf8(name))
        .setUserSpecifiedRate(rate)
        .setBucketRefillPerSecond(refill)
        .setBucketCapacity(5)
        .setPaused(paused)
        .setMode(TaskQueueMode.Mode.PUSH);
  }

  private static TaskQueueFetchQueueStatsResponse.QueueStats stats(int tasks, long oldest) {
    return TaskQueueFetchQueueStatsResponse.QueueStats.newBuilder()
        .setNumTasks(tasks)
        .setOldestEtaUsec(oldest)
        .build();
  }

  @Test
  void tasks_aPageAtATime_runDeletePurge() throws Exception {
    TaskQueueQueryTasksResponse.Builder response = TaskQueueQueryTasksResponse.newBuilder();
    for (int i = 0; i < 3; i++) {
      response.addTask(
          TaskQueueQueryTasksResponse.Task.newBuilder()
              .setTaskName(ByteString.copyFromUtf8("t" + i))
              .setEtaUsec(1000 + i)
              .setUrl(ByteString.copyFromUtf8("/work"))
              .setMethod(TaskQueueQueryTasksResponse.Task.RequestMethod.POST)
              .setRetryCount(i)
              .setCreationTimeUsec(0)
              .setBodySize(4)
              .addHeader(
                  TaskQueueQueryTasksResponse.Task.Header.newBuilder()
                      .setKey(ByteString.copyFromUtf8("X-A"))
                      .setValue(ByteString.copyFromUtf8("b")))
              .setRunLog(
                  TaskQueueQueryTasksResponse.Task.RunLog.newBuilder()
                      .setDispatchedUsec(1)
                      .setLagUsec(0)
                      .setElapsedUsec(1)
                      .setResponseCode(500)));
    }
    answers.add(response.build().toByteArray());
    TaskQueues queues = new TaskQueues(host);
    TaskQueues.Tasks page = queues.tasksBlocking("held", null, 2);
    assertEquals(List.of("t0", "t1"), page.tasks().stream().map(TaskQueues.Task::name).toList());
    assertEquals("t2", page.next().name());
    TaskQueues.Task t1 = page.tasks().get(1);
    assertEquals(1001, t1.etaUsec());
    assertEquals("POST", t1.method());
    assertEquals(1, t1.retryCount());
    assertEquals(500, t1.lastStatus());
    assertEquals(List.of(Map.entry("X-A", "b")), t1.headers());
    TaskQueueQueryTasksRequest query = TaskQueueQueryTasksRequest.parseFrom(requests.get(0));
    assertEquals("held", query.getQueueName().toStringUtf8());
    assertEquals(3, query.getMaxRows());
    assertFalse(query.hasStartEtaUsec());

    queues.tasksBlocking("held", page.next(), 2);
    query = TaskQueueQueryTasksRequest.parseFrom(requests.get(1));
    assertEquals("t2", query.getStartTaskName().toStringUtf8());
    assertEquals(1002, query.getStartEtaUsec());

    answers.add(
        TaskQueueForceRunResponse.newBuilder().setResult(ErrorCode.OK).build().toByteArray());
    assertTrue(queues.runBlocking("held", "t0"));
    TaskQueueForceRunRequest run = TaskQueueForceRunRequest.parseFrom(requests.get(2));
    assertEquals("held", run.getQueueName().toStringUtf8());
    assertEquals("t0", run.getTaskName().toStringUtf8());
    answers.add(
        TaskQueueForceRunResponse.newBuilder()
            .setResult(ErrorCode.UNKNOWN_TASK)
            .build()
            .toByteArray());
    assertFalse(queues.runBlocking("held", "gone"));

    answers.add(TaskQueueDeleteResponse.newBuilder().addResult(ErrorCode.OK).build().toByteArray());
    assertTrue(queues.deleteBlocking("held", "t1"));
    TaskQueueDeleteRequest delete = TaskQueueDeleteRequest.parseFrom(requests.get(4));
    assertEquals("held", delete.getQueueName().toStringUtf8());
    assertEquals("t1", delete.getTaskName(0).toStringUtf8());

    queues.purgeBlocking("held");
    assertEquals(
        "held",
        TaskQueuePurgeQueueRequest.parseFrom(requests.get(5)).getQueueName().toStringUtf8());
  }

  @Test
  void memcacheStats() throws Exception {
    answers.add(
        MemcacheStatsResponse.newBuilder()
            .setStats(
                MergedNamespaceStats.newBuilder()
                    .setHits(5)
                    .setMisses(2)
                    .setByteHits(100)
                    .setItems(3)
                    .setBytes(300)
                    .setOldestItemAge(60))
            .build()
            .toByteArray());
    Memcache.Stats stats = new Memcache(host).statsBlocking();
    assertEquals(new Memcache.Stats(5, 2, 100, 3, 300, 60), stats);
    new Memcache(host).flushBlocking();
    assertEquals(List.of("memcache.Stats", "memcache.FlushAll"), calls);
  }

  @Test
  void sentMail() throws Exception {
    answers.add(
        GetSentMessagesResponse.newBuilder()
            .addSentMessage(
                MailMessage.newBuilder()
                    .setSender("a@example.com")
                    .addTo("b@example.com")
                    .addTo("c@example.com")
                    .setSubject("<s>")
                    .setTextBody("text")
                    .setHtmlBody("<p>html</p>"))
            .build()
            .toByteArray());
    List<Mail.Message> sent = new Mail(host).sentBlocking();
    assertEquals(1, sent.size());
    Mail.Message m = sent.get(0);
    assertEquals("a@example.com", m.sender());
    assertEquals(List.of("b@example.com", "c@example.com"), m.to());
    assertEquals("<s>", m.subject());
    assertEquals("<p>html</p>", m.htmlBody());
  }
}
