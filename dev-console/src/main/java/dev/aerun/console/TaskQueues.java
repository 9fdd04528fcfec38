package dev.aerun.console;

import dev.aerun.runtime.apis.ApiCallException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The task queues as the console reads and changes them: the platform's {@code taskqueue} calls
 * ({@code FetchQueues}, {@code FetchQueueStats}, {@code QueryTasks}, {@code ForceRun}, {@code
 * Delete}, {@code PurgeQueue}) to the API host, their messages written and read by hand.
 *
 * <p>Field numbers: {@code FetchQueuesRequest {max_rows = 2}}, {@code FetchQueuesResponse {Queue
 * group 1 {queue_name = 2, bucket_refill_per_second = 3, bucket_capacity = 4, user_specified_rate =
 * 5, paused = 6, retry_parameters = 7, max_concurrent_requests = 8, mode = 9}}}, {@code
 * FetchQueueStatsRequest {queue_name = 2}}, {@code FetchQueueStatsResponse {QueueStats group 1
 * {num_tasks = 2, oldest_eta_usec = 3}}}, {@code QueryTasksRequest {queue_name = 2, start_task_name
 * = 3, start_eta_usec = 4, max_rows = 5}}, {@code QueryTasksResponse {Task group 1 {task_name = 2,
 * eta_usec = 3, url = 4, method = 5, retry_count = 6, Header group 7 {key = 8, value = 9},
 * body_size = 10, RunLog group 16 {dispatched_usec = 17, response_code = 20}, retry_parameters =
 * 23}}}, {@code RetryParameters {retry_limit = 1, age_limit_sec = 2, min_backoff_sec = 3,
 * max_backoff_sec = 4, max_doublings = 5}}, {@code ForceRunRequest {queue_name = 2, task_name =
 * 3}}, {@code ForceRunResponse {result = 3}}, {@code DeleteRequest {queue_name = 1, task_name =
 * 2}}, {@code DeleteResponse {result = 3}}, {@code PurgeQueueRequest {queue_name = 2}}.
 */
final class TaskQueues {
  /** {@code TaskQueueServiceError.ErrorCode} values the console names. */
  static final int OK = 0;

  static final int UNKNOWN_QUEUE = 1;
  static final int UNKNOWN_TASK = 14;

  private final HostCalls host;

  TaskQueues(HostCalls host) {
    this.host = host;
  }

  /**
   * A queue of {@code queue.xml} (or {@code default}).
   *
   * @param rate the rate as written ({@code 5/s}), "" when none
   * @param bucketSize the bucket's size
   * @param paused a push queue with a rate of 0
   * @param pull whether it is a pull queue
   * @param retry its retry parameters as text, "" when none were given
   * @param tasks how many tasks it holds
   * @param oldestEtaUsec the ETA of its oldest task (microseconds since the epoch), 0 when none
   */
  record Queue(
      String name,
      String rate,
      double bucketSize,
      boolean paused,
      boolean pull,
      String retry,
      int maxConcurrentRequests,
      long tasks,
      long oldestEtaUsec) {}

  /**
   * A task waiting in a queue.
   *
   * @param etaUsec when it runs next (microseconds since the epoch)
   * @param method its HTTP method, "" for a pull task
   * @param retryCount how often it was tried and failed
   * @param lastStatus the status of its last try, 0 when it was not tried
   * @param headers its headers, in order
   * @param bodySize its body's size
   * @param retry its retry parameters as text
   */
  record Task(
      String name,
      long etaUsec,
      String url,
      String method,
      int retryCount,
      int lastStatus,
      List<Map.Entry<String, String>> headers,
      long bodySize,
      String retry) {}

  /** A page of tasks, and where the next page starts ({@code null} at the end). */
  record Tasks(List<Task> tasks, Task next) {}

  /** Every queue with its task count, by name. */
  List<Queue> queuesBlocking() throws ApiCallException, InterruptedException {
    ProtoMessage fetched =
        ProtoMessage.parse(
            host.callBlocking(
                "taskqueue", "FetchQueues", new ProtoWriter().varint(2, 1000).toByteArray()));
    Map<String, ProtoMessage> byName = new TreeMap<>();
    for (ProtoMessage queue : fetched.groups(1)) {
      byName.put(queue.string(2), queue);
    }
    ProtoWriter statsRequest = new ProtoWriter();
    for (String name : byName.keySet()) {
      statsRequest.string(2, name);
    }
    List<ProtoMessage> stats =
        byName.isEmpty()
            ? List.of()
            : ProtoMessage.parse(
                    host.callBlocking("taskqueue", "FetchQueueStats", statsRequest.toByteArray()))
                .groups(1);
    List<Queue> queues = new ArrayList<>();
    int i = 0;
    for (ProtoMessage queue : byName.values()) {
      ProtoMessage stat = i < stats.size() ? stats.get(i) : ProtoMessage.empty();
      i++;
      queues.add(
          new Queue(
              queue.string(2),
              queue.string(5),
              queue.doubleValue(4),
              queue.bool(6),
              queue.bits(9) == 1,
              retry(queue.message(7)),
              (int) queue.bits(8),
              stat.bits(2),
              stat.bits(3) > 0 ? stat.bits(3) : 0));
    }
    return queues;
  }

  /**
   * Up to {@code max} tasks of {@code queue} by ETA, from {@code from} on ({@code null}: the
   * first).
   */
  Tasks tasksBlocking(String queue, Task from, int max)
      throws ApiCallException, InterruptedException {
    ProtoWriter request = new ProtoWriter().string(2, queue).varint(5, max + 1);
    if (from != null) {
      request.string(3, from.name()).varint(4, from.etaUsec());
    }
    ProtoMessage response =
        ProtoMessage.parse(host.callBlocking("taskqueue", "QueryTasks", request.toByteArray()));
    List<Task> tasks = new ArrayList<>();
    for (ProtoMessage task : response.groups(1)) {
      List<Map.Entry<String, String>> headers = new ArrayList<>();
      for (ProtoMessage header : task.groups(7)) {
        headers.add(Map.entry(header.string(8), header.string(9)));
      }
      tasks.add(
          new Task(
              task.string(2),
              task.bits(3),
              task.string(4),
              method((int) task.bits(5)),
              (int) task.bits(6),
              (int) task.group(16).bits(20),
              List.copyOf(headers),
              task.bits(10),
              retry(task.message(23))));
    }
    return tasks.size() > max
        ? new Tasks(List.copyOf(tasks.subList(0, max)), tasks.get(max))
        : new Tasks(tasks, null);
  }

  /** Runs a task now; false when the queue has no such task. */
  boolean runBlocking(String queue, String task) throws ApiCallException, InterruptedException {
    byte[] request = new ProtoWriter().string(2, queue).string(3, task).toByteArray();
    return ProtoMessage.parse(host.callBlocking("taskqueue", "ForceRun", request)).bits(3) == OK;
  }

  /** Deletes a task; false when the queue has no such task. */
  boolean deleteBlocking(String queue, String task) throws ApiCallException, InterruptedException {
    byte[] request = new ProtoWriter().string(1, queue).string(2, task).toByteArray();
    ProtoMessage response = ProtoMessage.parse(host.callBlocking("taskqueue", "Delete", request));
    return response.bits(3) == OK;
  }

  /** Deletes every task of a queue. */
  void purgeBlocking(String queue) throws ApiCallException, InterruptedException {
    host.callBlocking("taskqueue", "PurgeQueue", new ProtoWriter().string(2, queue).toByteArray());
  }

  private static String method(int method) {
    return switch (method) {
      case 1 -> "GET";
      case 2 -> "POST";
      case 3 -> "HEAD";
      case 4 -> "PUT";
      case 5 -> "DELETE";
      default -> "";
    };
  }

  private static String retry(ProtoMessage retry) {
    List<String> parts = new ArrayList<>();
    if (retry.has(1)) {
      parts.add("retry limit " + retry.bits(1));
    }
    if (retry.has(2)) {
      parts.add("age limit " + retry.bits(2) + " s");
    }
    if (retry.has(3)) {
      parts.add("min backoff " + retry.doubleValue(3) + " s");
    }
    if (retry.has(4)) {
      parts.add("max backoff " + retry.doubleValue(4) + " s");
    }
    if (retry.has(5)) {
      parts.add("max doublings " + retry.bits(5));
    }
    return String.join(", ", parts);
  }
}
