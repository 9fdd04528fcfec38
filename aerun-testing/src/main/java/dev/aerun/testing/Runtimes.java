package dev.aerun.testing;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * A JUnit extension that starts runtimes for a test class, stops them after it, and prints what
 * they logged only when a test fails:
 *
 * <pre>
 * &#64;RegisterExtension static final Runtimes runtimes = new Runtimes();
 * ...
 * RuntimeProcess runtime = runtimes.start(RuntimeProcess.launch(app));
 * </pre>
 */
public final class Runtimes implements TestWatcher, AfterAllCallback {
  private final List<RuntimeProcess> started = new ArrayList<>();

  /** Starts {@code launch}; the runtime is stopped after the test class. */
  public RuntimeProcess start(RuntimeProcess.Launch launch) throws IOException {
    return add(launch.start());
  }

  /** Takes {@code runtime} in: stopped after the test class, its output shown if a test fails. */
  public RuntimeProcess add(RuntimeProcess runtime) {
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
            "---- runtime output (%s) for failed test %s ----%n%s----%n",
            runtime.log(), context.getDisplayName(), runtime.output());
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
