package dev.aerun.sample.apis;

import com.google.appengine.api.taskqueue.DeferredTask;

/** A {@code DeferredTask}: records that it ran, where the tests read it back. */
public class RecordTask implements DeferredTask {
  private static final long serialVersionUID = 1L;
  private final String id;

  public RecordTask(String id) {
    this.id = id;
  }

  @Override
  public void run() {
    Seen.TASKS.put(id, "deferred ran");
  }
}
