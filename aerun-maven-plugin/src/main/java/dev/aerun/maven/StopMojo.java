package dev.aerun.maven;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;

/**
 * Stops the runtime {@code aerun:start} started (bound to {@code post-integration-test}): SIGTERM,
 * so it drains, then waits for it to exit.
 */
@Mojo(name = "stop", defaultPhase = LifecyclePhase.POST_INTEGRATION_TEST, threadSafe = true)
public final class StopMojo extends AbstractAerunMojo {
  @Override
  public void execute() throws MojoExecutionException {
    if (skip) {
      return;
    }
    Path pidFile = workDirectory().resolve(StartMojo.PID_FILE);
    if (!Files.isRegularFile(pidFile)) {
      getLog().info("aerun: nothing to stop");
      return;
    }
    try {
      long pid = Long.parseLong(Files.readString(pidFile).trim());
      Optional<ProcessHandle> process = ProcessHandle.of(pid);
      if (process.isPresent()) {
        ForkedRuntime.stop(process.get(), RunMojo.STOP_GRACE);
        getLog().info("aerun: stopped the runtime (pid " + pid + ")");
      }
      Files.delete(pidFile);
    } catch (IOException | NumberFormatException e) {
      throw new MojoExecutionException("cannot stop the aerun runtime: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new MojoExecutionException("interrupted", e);
    }
  }
}
