package dev.aerun.maven;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;

/**
 * Starts the app on the aerun runtime in the background and returns once it serves, for integration
 * tests (bound to {@code pre-integration-test}; {@code aerun:stop} ends it). The port it serves on
 * is published as the project property {@link #portProperty}; its output goes to {@code
 * target/aerun/aerun.log}. The fork stops by itself if this Maven process ends.
 */
@Mojo(
    name = "start",
    defaultPhase = LifecyclePhase.PRE_INTEGRATION_TEST,
    requiresDependencyResolution = ResolutionScope.RUNTIME,
    threadSafe = true)
public final class StartMojo extends AbstractAerunMojo {
  /** The pid file {@code aerun:stop} reads. */
  static final String PID_FILE = "aerun.pid";

  /** The webapp source directory, served with {@code target/classes} and the dependencies. */
  @Parameter(property = "aerun.webappDirectory", defaultValue = "${basedir}/src/main/webapp")
  private File webappDirectory;

  /** A {@code .war} or exploded directory to serve instead of the sources. */
  @Parameter(property = "aerun.war")
  private File war;

  /** The project property that receives the port the app serves on. */
  @Parameter(property = "aerun.portProperty", defaultValue = "aerun.port")
  private String portProperty;

  /** How long to wait for the app to serve. */
  @Parameter(property = "aerun.startTimeoutSeconds", defaultValue = "120")
  private int startTimeoutSeconds;

  @Override
  public void execute() throws MojoExecutionException, MojoFailureException {
    if (skip) {
      getLog().info("aerun: skipped");
      return;
    }
    App app =
        war != null
            ? new App(war.toPath().toAbsolutePath(), List.of())
            : sourcesApp(webappDirectory);
    Path log = workDirectory().resolve("aerun.log");
    try {
      Files.createDirectories(log.getParent());
      Process process =
          processBuilder(command(app, false))
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
      int served;
      try {
        served = ForkedRuntime.awaitStarted(process, log, Duration.ofSeconds(startTimeoutSeconds));
      } catch (ForkedRuntime.StartFailure e) {
        process.destroyForcibly();
        throw new MojoFailureException("aerun:start: " + e.getMessage() + " (log: " + log + ")");
      }
      Files.writeString(workDirectory().resolve(PID_FILE), String.valueOf(process.pid()));
      project.getProperties().setProperty(portProperty, String.valueOf(served));
      getLog().info("aerun: serving on port " + served + " (" + portProperty + "); log: " + log);
    } catch (IOException e) {
      throw new MojoExecutionException("cannot start the aerun runtime: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new MojoExecutionException("interrupted", e);
    }
  }
}
