package dev.aerun.apihost;

import com.google.appengine.api.mail.MailServicePb.MailMessage;
import com.google.appengine.api.mail.MailStubServicePb.ClearSentMessagesResponse;
import com.google.appengine.api.mail.MailStubServicePb.GetSentMessagesResponse;
import com.google.appengine.api.mail.dev.LocalMailService;
import com.google.appengine.api.taskqueue.dev.LocalTaskQueue;
import com.google.appengine.api.taskqueue.dev.QueueStateInfo;
import com.google.appengine.api.taskqueue_bytes.TaskQueuePb.TaskQueueFetchQueuesRequest;
import com.google.appengine.api.taskqueue_bytes.TaskQueuePb.TaskQueueFetchQueuesResponse;
import com.google.appengine.api.taskqueue_bytes.TaskQueuePb.TaskQueueForceRunRequest;
import com.google.appengine.api.taskqueue_bytes.TaskQueuePb.TaskQueueForceRunResponse;
import com.google.appengine.api.taskqueue_bytes.TaskQueuePb.TaskQueueMode;
import com.google.appengine.api.taskqueue_bytes.TaskQueuePb.TaskQueueQueryTasksRequest;
import com.google.appengine.api.taskqueue_bytes.TaskQueuePb.TaskQueueQueryTasksResponse;
import com.google.appengine.api.taskqueue_bytes.TaskQueuePb.TaskQueueRetryParameters;
import com.google.appengine.api.taskqueue_bytes.TaskQueuePb.TaskQueueServiceError.ErrorCode;
import com.google.appengine.repackaged.com.google.protobuf.ByteString;
import com.google.appengine.repackaged.com.google.protobuf.ExtensionRegistry;
import com.google.appengine.repackaged.com.google.protobuf.InvalidProtocolBufferException;
import com.google.appengine.tools.development.ApiProxyLocal;
import com.google.apphosting.api.ApiProxy;
import com.google.apphosting.utils.config.QueueXml;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The calls a services console needs that Google's local services offer only as Java methods (its
 * Java dev server's console calls them in-process), answered here as remote-API calls with the
 * platform's own messages, as Google's Python local services answer them: so the development
 * console reaches them through the host's protocol like every other call.
 *
 * <ul>
 *   <li>{@code taskqueue.FetchQueues}: the queues of {@code queue.xml} (and {@code default});
 *   <li>{@code taskqueue.QueryTasks}: a queue's tasks by ETA, with the retries and the last run
 *       this host dispatched ({@link TaskRuns});
 *   <li>{@code taskqueue.ForceRun}: runs a task now, as its queue would;
 *   <li>{@code mail.GetSentMessages}, {@code mail.ClearSentMessages}: the messages the app sent.
 * </ul>
 *
 * Deleting a task ({@code taskqueue.Delete}), purging a queue ({@code taskqueue.PurgeQueue}), the
 * queues' counts ({@code taskqueue.FetchQueueStats}) and everything of the Datastore and Memcache
 * are the services' own calls.
 */
final class AdminCalls {
  private final ApiProxyLocal proxy;

  AdminCalls(ApiProxyLocal proxy) {
    this.proxy = proxy;
  }

  /**
   * The response to {@code service.method} if it is one of these calls, else null (the services
   * answer it).
   *
   * @throws ApiProxy.ApplicationException with the service's error code (an unknown queue, a
   *     request that does not parse)
   */
  byte[] callOrNull(String service, String method, byte[] request) {
    try {
      return switch (service + "." + method) {
        case "taskqueue.FetchQueues" ->
            fetchQueues(TaskQueueFetchQueuesRequest.parseFrom(request, registry())).toByteArray();
        case "taskqueue.QueryTasks" ->
            queryTasks(TaskQueueQueryTasksRequest.parseFrom(request, registry())).toByteArray();
        case "taskqueue.ForceRun" ->
            forceRun(TaskQueueForceRunRequest.parseFrom(request, registry())).toByteArray();
        case "mail.GetSentMessages" ->
            GetSentMessagesResponse.newBuilder()
                .addAllSentMessage(mail().getSentMessages())
                .build()
                .toByteArray();
        case "mail.ClearSentMessages" -> {
          List<MailMessage> sent = mail().getSentMessages();
          mail().clearSentMessages();
          yield ClearSentMessagesResponse.newBuilder()
              .setMessagesCleared(sent.size())
              .build()
              .toByteArray();
        }
        default -> null;
      };
    } catch (InvalidProtocolBufferException e) {
      throw new ApiProxy.ApplicationException(ErrorCode.INVALID_REQUEST_VALUE, "not a request");
    }
  }

  private static ExtensionRegistry registry() {
    return ExtensionRegistry.getEmptyRegistry();
  }

  private LocalTaskQueue taskQueue() {
    return (LocalTaskQueue) proxy.getService(LocalTaskQueue.PACKAGE);
  }

  private LocalMailService mail() {
    return (LocalMailService) proxy.getService(LocalMailService.PACKAGE);
  }

  private TaskQueueFetchQueuesResponse fetchQueues(TaskQueueFetchQueuesRequest request) {
    TaskQueueFetchQueuesResponse.Builder response = TaskQueueFetchQueuesResponse.newBuilder();
    int rows = 0;
    for (QueueStateInfo info : taskQueue().getQueueStateInfo().values()) {
      if (request.getMaxRows() > 0 && rows++ >= request.getMaxRows()) {
        break;
      }
      QueueXml.Entry entry = info.getEntry();
      double rate = entry.getRate() == null ? 0 : entry.getRate();
      QueueXml.RateUnit unit =
          entry.getRateUnit() == null ? QueueXml.RateUnit.SECOND : entry.getRateUnit();
      TaskQueueFetchQueuesResponse.Queue.Builder queue =
          TaskQueueFetchQueuesResponse.Queue.newBuilder()
              .setQueueName(ByteString.copyFromUtf8(entry.getName()))
              .setBucketRefillPerSecond(rate / unit.getSeconds())
              .setBucketCapacity(info.getBucketSize())
              .setPaused(info.getMode() == TaskQueueMode.Mode.PUSH && rate == 0)
              .setMode(info.getMode());
      if (entry.getRate() != null) {
        queue.setUserSpecifiedRate(formatRate(rate) + "/" + unit.getIdent());
      }
      if (entry.getMaxConcurrentRequests() != null) {
        queue.setMaxConcurrentRequests(entry.getMaxConcurrentRequests());
      }
      if (entry.getRetryParameters() != null) {
        queue.setRetryParameters(retryParameters(entry.getRetryParameters()));
      }
      response.addQueue(queue);
    }
    return response.build();
  }

  private static String formatRate(double rate) {
    return rate == Math.rint(rate) ? Long.toString((long) rate) : Double.toString(rate);
  }

  private static TaskQueueRetryParameters retryParameters(QueueXml.RetryParameters given) {
    TaskQueueRetryParameters.Builder retry = TaskQueueRetryParameters.newBuilder();
    if (given.getRetryLimit() != null) {
      retry.setRetryLimit(given.getRetryLimit());
    }
    if (given.getAgeLimitSec() != null) {
      retry.setAgeLimitSec(given.getAgeLimitSec());
    }
    if (given.getMinBackoffSec() != null) {
      retry.setMinBackoffSec(given.getMinBackoffSec());
    }
    if (given.getMaxBackoffSec() != null) {
      retry.setMaxBackoffSec(given.getMaxBackoffSec());
    }
    if (given.getMaxDoublings() != null) {
      retry.setMaxDoublings(given.getMaxDoublings());
    }
    return retry.build();
  }

  private QueueStateInfo queue(String name) {
    QueueStateInfo info = taskQueue().getQueueStateInfo().get(name);
    if (info == null) {
      throw new ApiProxy.ApplicationException(ErrorCode.UNKNOWN_QUEUE_VALUE, name);
    }
    return info;
  }

  private TaskQueueQueryTasksResponse queryTasks(TaskQueueQueryTasksRequest request) {
    String queueName = request.getQueueName().toStringUtf8();
    QueueStateInfo info = queue(queueName);
    long startEtaUsec = request.getStartEtaUsec();
    String startName = request.getStartTaskName().toStringUtf8();
    List<QueueStateInfo.TaskStateInfo> tasks = new ArrayList<>(info.getTaskInfo());
    tasks.sort(
        Comparator.comparingLong(QueueStateInfo.TaskStateInfo::getEtaMillis)
            .thenComparing(QueueStateInfo.TaskStateInfo::getTaskName));
    TaskQueueQueryTasksResponse.Builder response = TaskQueueQueryTasksResponse.newBuilder();
    int max = Math.max(1, request.getMaxRows());
    for (QueueStateInfo.TaskStateInfo task : tasks) {
      long etaUsec = task.getEtaMillis() * 1000;
      if (request.hasStartEtaUsec()
          && (etaUsec < startEtaUsec
              || (etaUsec == startEtaUsec && task.getTaskName().compareTo(startName) < 0))) {
        continue;
      }
      if (response.getTaskCount() >= max) {
        break;
      }
      response.addTask(task(queueName, task, etaUsec));
    }
    return response.build();
  }

  private static TaskQueueQueryTasksResponse.Task task(
      String queueName, QueueStateInfo.TaskStateInfo task, long etaUsec) {
    byte[] body = task.getBodyAsBytes();
    TaskQueueQueryTasksResponse.Task.Builder out =
        TaskQueueQueryTasksResponse.Task.newBuilder()
            .setTaskName(ByteString.copyFromUtf8(task.getTaskName()))
            .setEtaUsec(etaUsec)
            .setUrl(ByteString.copyFromUtf8(task.getUrl()))
            .setBodySize(body.length)
            .setBody(ByteString.copyFrom(body))
            // The local queue keeps no creation time.
            .setCreationTimeUsec(0)
            .setRetryParameters(task.getRetryParameters());
    if (!task.getMethod().equals("PULL")) {
      out.setMethod(TaskQueueQueryTasksResponse.Task.RequestMethod.valueOf(task.getMethod()));
    }
    for (QueueStateInfo.HeaderWrapper header : task.getHeaders()) {
      out.addHeader(
          TaskQueueQueryTasksResponse.Task.Header.newBuilder()
              .setKey(ByteString.copyFromUtf8(header.getKey()))
              .setValue(ByteString.copyFromUtf8(header.getValue())));
    }
    byte[] tag = task.getTagAsBytes();
    if (tag != null) {
      out.setTag(ByteString.copyFrom(tag));
    }
    TaskRuns.Run run = TaskRuns.last(queueName, task.getTaskName());
    if (run != null) {
      out.setRetryCount(run.retryCount() + 1)
          .setExecutionCount(run.retryCount() + 1)
          .setFirstTryUsec(run.firstTryMillis() * 1000)
          .setRunLog(
              TaskQueueQueryTasksResponse.Task.RunLog.newBuilder()
                  .setDispatchedUsec(run.dispatchedMillis() * 1000)
                  .setLagUsec(Math.max(0, run.lagMillis()) * 1000)
                  .setElapsedUsec(run.elapsedMillis() * 1000)
                  .setResponseCode(run.status()));
    }
    return out.build();
  }

  private TaskQueueForceRunResponse forceRun(TaskQueueForceRunRequest request) {
    String queueName = request.getQueueName().toStringUtf8();
    queue(queueName);
    boolean ran = taskQueue().runTask(queueName, request.getTaskName().toStringUtf8());
    return TaskQueueForceRunResponse.newBuilder()
        .setResult(ran ? ErrorCode.OK : ErrorCode.UNKNOWN_TASK)
        .build();
  }
}
