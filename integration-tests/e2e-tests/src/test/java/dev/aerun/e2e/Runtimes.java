package dev.aerun.e2e;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * Starts runtimes for a test class, stops them after it, and prints what they logged only when a
 * test fails.
 */
public final class Runtimes implements TestWatcher, AfterAllCallback {
  private final List<RuntimeProcess> started = new ArrayList<>();

  public RuntimeProcess start(RuntimeProcess.Launch launch) throws IOException {
    RuntimeProcess runtime = launch.start();
    synchronized (started) {
      started.add(runtime);
    }
    return runtime;
  }

  @Override
  public void testFailed(ExtensionContext context, Throwable cause) {
    synchronized (started) {
      for (RuntimeProcess runtime : started) {
        System.err.printf(
            "---- runtime output for failed test %s ----%n%s----%n",
            context.getDisplayName(), runtime.output());
      }
    }
  }

  @Override
  public void afterAll(ExtensionContext context) {
    synchronized (started) {
      started.forEach(RuntimeProcess::close);
      started.clear();
    }
  }
}
