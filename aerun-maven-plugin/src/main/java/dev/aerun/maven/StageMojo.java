package dev.aerun.maven;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * Stages the project's WAR for deployment: runs the runtime's {@code stage} subcommand (bound to
 * {@code package}, after the WAR is written), which writes the app image ({@code image.tar}) and
 * the Cloud Run, Kubernetes and App Engine flexible files into {@link #outputDirectory}; with
 * {@link #target} {@code appengine-standard}, an app folder App Engine standard deploys, this
 * runtime inside it as its {@code <entrypoint>} (no runtime image needed).
 *
 * <p>The runtime images come from {@link #base} when it is set, else from the Maven repository:
 * {@code dev.aerun:images:<plugin version>:tar:javaNN} and its {@code tar.digest}, which {@code mvn
 * install} of the runtime's {@code images} module installs. Each one the repository has is linked
 * into {@code target/aerun/images}; the app's own {@code <runtime>} picks one of them.
 */
@Mojo(name = "stage", defaultPhase = LifecyclePhase.PACKAGE, threadSafe = true)
public final class StageMojo extends AbstractAerunMojo {
  /** The Java runtimes there are images for. */
  static final List<String> RUNTIMES = List.of("java17", "java21", "java25");

  /**
   * What to stage for: {@code containers} (the app image and the Cloud Run, GKE and App Engine
   * flexible files) or {@code appengine-standard} (an app folder for {@code gcloud app deploy}).
   */
  @Parameter(property = "aerun.target", defaultValue = "containers")
  private String target;

  /** The {@code .war} file or exploded directory to stage. */
  @Parameter(
      property = "aerun.war",
      defaultValue = "${project.build.directory}/${project.build.finalName}.war")
  private File war;

  /** Where the image and the platform files are written. */
  @Parameter(
      property = "aerun.outputDirectory",
      defaultValue = "${project.build.directory}/aerun-stage")
  private File outputDirectory;

  /**
   * The repository the manifests name the app image in, e.g. {@code
   * europe-west1-docker.pkg.dev/PROJECT/REPO/NAME}; by default the service name.
   */
  @Parameter(property = "aerun.imageRepo")
  private String imageRepo;

  /**
   * A folder holding the runtime images ({@code java17.tar} and {@code java17.tar.digest} ...),
   * e.g. {@code images/target/images} of a runtime build; by default they come from the Maven
   * repository.
   */
  @Parameter(property = "aerun.base")
  private File base;

  /**
   * Whether the Cloud Run service uses HTTP/2 end to end (its container port named {@code h2c}):
   * the {@code stage} command's {@code --http2}.
   */
  @Parameter(property = "aerun.http2", defaultValue = "false")
  private boolean http2;

  /**
   * Whether the app's JSPs are compiled now, into what is staged (the default), or left to compile
   * on their first request: the {@code stage} command's {@code --no-jsp-precompile} when false.
   */
  @Parameter(property = "aerun.precompileJsps", defaultValue = "true")
  private boolean precompileJsps;

  @Override
  public void execute() throws MojoExecutionException, MojoFailureException {
    if (skip) {
      getLog().info("aerun: skipped");
      return;
    }
    if (!war.exists()) {
      throw new MojoExecutionException(war + " does not exist: run mvn package first");
    }
    List<String> command = new ArrayList<>();
    command.add(javaExecutable != null ? javaExecutable : javaOfThisJvm());
    command.add("-jar");
    command.add(runtimeJar().toString());
    command.add("stage");
    command.add("--target");
    command.add(target);
    if (!target.equals("appengine-standard")) {
      if (imageRepo != null && !imageRepo.isBlank()) {
        command.add("--image-repo");
        command.add(imageRepo);
      }
      command.add("--base");
      command.add((base != null ? base.toPath() : imagesFromRepository()).toString());
    }
    if (http2 && !target.equals("appengine-standard")) {
      command.add("--http2");
    }
    if (!precompileJsps) {
      command.add("--no-jsp-precompile");
    }
    command.add(war.getAbsolutePath());
    command.add(outputDirectory.getAbsolutePath());
    getLog().debug("aerun: " + String.join(" ", command));
    int exit;
    String error = null;
    try {
      Process process = processBuilder(command).redirectErrorStream(true).start();
      try (BufferedReader lines =
          new BufferedReader(
              new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line = lines.readLine(); line != null; line = lines.readLine()) {
          if (line.startsWith("error: ")) {
            error = line.substring("error: ".length());
            getLog().error(line);
          } else if (line.startsWith("note: ")) {
            getLog().warn(line);
          } else {
            getLog().info(line);
          }
        }
      }
      exit = process.waitFor();
    } catch (IOException e) {
      throw new MojoExecutionException("cannot run the aerun stage command: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new MojoExecutionException("interrupted", e);
    }
    if (exit != 0) {
      throw new MojoFailureException(
          "aerun:stage: " + (error != null ? error : "stage exited with " + exit));
    }
  }

  /**
   * {@code target/aerun/images} with a link to each runtime image the repository has; an image it
   * lacks is left out, and {@code stage} names it if the app needs it.
   */
  private Path imagesFromRepository() throws MojoExecutionException {
    Path folder = workDirectory().resolve("images");
    try {
      Files.createDirectories(folder);
      for (String runtime : RUNTIMES) {
        Path archive = folder.resolve(runtime + ".tar");
        Path digest = folder.resolve(runtime + ".tar.digest");
        Files.deleteIfExists(archive);
        Files.deleteIfExists(digest);
        File image = resolveOrNull("images", runtime, "tar");
        File imageDigest = image == null ? null : resolveOrNull("images", runtime, "tar.digest");
        if (imageDigest == null) {
          getLog().debug("aerun: no " + runtime + " image in the repository");
          continue;
        }
        link(image.toPath(), archive);
        Files.copy(imageDigest.toPath(), digest, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException e) {
      throw new MojoExecutionException(
          "cannot gather the runtime images in " + folder + ": " + e, e);
    }
    return folder;
  }

  /** A symbolic link where the file system has them; else a copy. */
  private static void link(Path target, Path link) throws IOException {
    try {
      Files.createSymbolicLink(link, target.toAbsolutePath());
    } catch (UnsupportedOperationException | IOException e) {
      Files.copy(target, link, StandardCopyOption.REPLACE_EXISTING);
    }
  }
}
