package dev.aerun.apihost;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The latest dispatch of each push task this host sent to the app, kept so that {@code
 * taskqueue.QueryTasks} can say how often a pending task was tried and how its last try went (the
 * local queue keeps neither). A task that succeeded is forgotten; at most {@link #MAX_TASKS} are
 * kept, the oldest going first. Process-wide, as {@link TaskDispatch} is.
 */
final class TaskRuns {
  static final int MAX_TASKS = 10_000;

  /**
   * One try of a task.
   *
   * @param retryCount the try's {@code X-AppEngine-TaskRetryCount} (0 for the first)
   * @param firstTryMillis when the task was first tried
   * @param dispatchedMillis when this try was sent
   * @param lagMillis how late after its ETA it was sent, if the ETA was known
   * @param elapsedMillis how long the app took to answer
   * @param status the app's status code (503 when it could not be reached)
   */
  record Run(
      int retryCount,
      long firstTryMillis,
      long dispatchedMillis,
      long lagMillis,
      long elapsedMillis,
      int status) {}

  private static final Map<String, Run> RUNS =
      new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Run> eldest) {
          return size() > MAX_TASKS;
        }
      };

  private TaskRuns() {}

  /** Records a try; one that succeeded (2xx) forgets the task. */
  static void record(
      String queue,
      String task,
      int retryCount,
      long etaMillis,
      long dispatched,
      long elapsed,
      int status) {
    String key = queue + "/" + task;
    synchronized (RUNS) {
      if (status >= 200 && status < 300) {
        RUNS.remove(key);
        return;
      }
      Run previous = RUNS.remove(key);
      long first = previous == null ? dispatched : previous.firstTryMillis();
      RUNS.put(
          key,
          new Run(
              retryCount,
              first,
              dispatched,
              etaMillis > 0 ? dispatched - etaMillis : 0,
              elapsed,
              status));
    }
  }

  /** The latest failed try of a task still pending, or null. */
  static Run last(String queue, String task) {
    synchronized (RUNS) {
      return RUNS.get(queue + "/" + task);
    }
  }
}
