package dev.aerun.maven;

import java.io.File;
import java.nio.file.Files;
import java.util.List;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * Serves a packaged app in the foreground: the project's {@code .war} (or an exploded {@code
 * target/<finalName>} directory). Run after {@code package}; with {@code aerun.watch} the file is
 * watched, and a new WAR redeploys.
 */
@Mojo(name = "run-war", threadSafe = true)
public final class RunWarMojo extends RunMojo {
  /** The {@code .war} file or exploded directory to serve. */
  @Parameter(
      property = "aerun.war",
      defaultValue = "${project.build.directory}/${project.build.finalName}.war")
  private File war;

  @Override
  protected App app() throws MojoExecutionException {
    if (!war.exists()) {
      throw new MojoExecutionException(war + " does not exist: run mvn package first");
    }
    if (war.isDirectory()
        && !Files.isRegularFile(war.toPath().resolve("WEB-INF/appengine-web.xml"))) {
      throw new MojoExecutionException(war + ": no WEB-INF/appengine-web.xml");
    }
    return new App(war.toPath().toAbsolutePath(), List.of());
  }
}
