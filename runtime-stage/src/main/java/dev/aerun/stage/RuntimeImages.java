package dev.aerun.stage;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * Where {@code stage} finds the runtime image ({@code java17.tar} and its {@code .digest}) of an
 * app's Java runtime.
 *
 * <p>With {@code --base DIR}, only {@code DIR/javaNN.tar}. Without it, in this order: the {@code
 * images} folder beside the launcher (a distribution laid out by hand), then the local Maven
 * repository, into which {@code mvn install} of the {@code images} module puts each image as {@code
 * dev.aerun:images:VERSION:tar:javaNN} (the repository is {@code -Dmaven.repo.local}, {@code
 * $MAVEN_REPO_LOCAL} or {@code ~/.m2/repository}; one set elsewhere in {@code settings.xml} is not
 * read: name it with {@code --base}). {@code VERSION} is this staging module's own, so a launcher
 * only ever stages onto images of its own release.
 */
public final class RuntimeImages {
  /** The Maven coordinates the images module installs the images under. */
  static final String GROUP_PATH = "dev/aerun/images";

  private final List<Candidate> candidates;

  private record Candidate(Path folder, String prefix) {
    Path archive(String runtime) {
      return folder.resolve(prefix + runtime + ".tar");
    }
  }

  private RuntimeImages(List<Candidate> candidates) {
    this.candidates = List.copyOf(candidates);
  }

  /** Only {@code folder/javaNN.tar} (the {@code --base} option). */
  public static RuntimeImages in(Path folder) {
    return new RuntimeImages(List.of(new Candidate(folder, "")));
  }

  /**
   * The default places: {@code runtimeHome/images} (when the launcher's folder is known), then the
   * local Maven repository.
   */
  public static RuntimeImages defaults(
      Path runtimeHome, Map<String, String> environment, Map<String, String> properties) {
    List<Candidate> candidates = new ArrayList<>();
    if (runtimeHome != null) {
      candidates.add(new Candidate(runtimeHome.resolve("images"), ""));
    }
    String version = version();
    candidates.add(
        new Candidate(
            mavenRepository(environment, properties).resolve(GROUP_PATH).resolve(version),
            "images-" + version + "-"));
    return new RuntimeImages(candidates);
  }

  /** The local Maven repository: {@code maven.repo.local}, then the environment, then ~/.m2. */
  static Path mavenRepository(Map<String, String> environment, Map<String, String> properties) {
    String given = properties.get("maven.repo.local");
    if (given == null || given.isBlank()) {
      given = environment.get("MAVEN_REPO_LOCAL");
    }
    if (given != null && !given.isBlank()) {
      return Path.of(given);
    }
    return Path.of(properties.getOrDefault("user.home", ""), ".m2", "repository");
  }

  /** This module's version, written into {@code stage-version.properties} by the build. */
  static String version() {
    try (InputStream in = RuntimeImages.class.getResourceAsStream("stage-version.properties")) {
      if (in == null) {
        throw new IllegalStateException("stage-version.properties is missing from runtime-stage");
      }
      Properties properties = new Properties();
      properties.load(in);
      return properties.getProperty("version");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The archive of {@code runtime} ({@code java17} ...), from the first place that has it.
   *
   * @throws StageException naming every place looked at and the command that builds the image
   */
  public Path archive(String runtime) throws StageException {
    for (Candidate candidate : candidates) {
      Path archive = candidate.archive(runtime);
      if (Files.isRegularFile(archive)) {
        return archive;
      }
    }
    List<String> looked = candidates.stream().map(c -> c.archive(runtime).toString()).toList();
    throw new StageException(
        "no runtime image for "
            + runtime
            + " (looked for "
            + String.join(", ", looked)
            + "): build and install it with `mvn -pl images -am install"
            + (runtime.equals("java17") ? "" : " -Pall-images")
            + "`, or name the folder holding "
            + runtime
            + ".tar with --base");
  }
}
