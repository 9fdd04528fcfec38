package dev.aerun.maven;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.apache.maven.artifact.Artifact;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.descriptor.PluginDescriptor;
import org.apache.maven.plugins.annotations.Component;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;
import org.eclipse.aether.RepositorySystem;
import org.eclipse.aether.RepositorySystemSession;
import org.eclipse.aether.artifact.DefaultArtifact;
import org.eclipse.aether.repository.RemoteRepository;
import org.eclipse.aether.resolution.ArtifactRequest;
import org.eclipse.aether.resolution.ArtifactResolutionException;

/**
 * What every goal shares: the parameters, the runtime resolved from the Maven repository (the
 * {@code dev.aerun:runtime-main:zip:dist} of this plugin's version) and the forked JVM's command
 * line.
 */
abstract class AbstractAerunMojo extends AbstractMojo {

  /** Port to serve on; 0 picks a free one (the start line, and {@code aerun:start}, say which). */
  @Parameter(property = "aerun.port", defaultValue = "8080")
  protected int port;

  /** Address to bind: loopback by default, so the dev server is not on the network. */
  @Parameter(property = "aerun.address", defaultValue = "127.0.0.1")
  protected String address;

  /**
   * Serving mode, {@code http} or {@code legacy}; by default what {@code appengine-web.xml} says.
   */
  @Parameter(property = "aerun.mode")
  protected String mode;

  /** EE version, {@code ee8}, {@code ee10} or {@code ee11}; by default from {@code <runtime>}. */
  @Parameter(property = "aerun.ee")
  protected String ee;

  /** Options for the forked JVM, e.g. {@code -Xmx512m} (property: separated by spaces). */
  @Parameter(property = "aerun.jvmFlags")
  protected List<String> jvmFlags = new ArrayList<>();

  /** System properties for the forked JVM; they win over the descriptor's, as {@code -D} does. */
  @Parameter protected Map<String, String> systemProperties = new LinkedHashMap<>();

  /** Environment variables for the forked JVM, on top of Maven's own environment. */
  @Parameter protected Map<String, String> environment = new LinkedHashMap<>();

  /**
   * Addresses or CIDR blocks whose {@code X-AppEngine-*} headers are believed; by default loopback
   * (the development default).
   */
  @Parameter(property = "aerun.trustedProxies")
  protected String trustedProxies;

  /**
   * Addresses, CIDR blocks, {@code unix} or {@code all} trusted for the forwarding headers only
   * ({@code X-Forwarded-For}, {@code X-Forwarded-Proto}, {@code Forwarded}; {@code
   * --forwarded-from}): a TLS-terminating proxy in front of the dev server.
   */
  @Parameter(property = "aerun.forwardedFrom")
  protected String forwardedFrom;

  /**
   * Host names (comma-separated) that count as this machine besides {@code localhost}, {@code
   * 127.0.0.1} and {@code [::1]}: requests from loopback naming them get the development
   * conveniences ({@code --dev-hosts}).
   */
  @Parameter(property = "aerun.devHosts")
  protected String devHosts;

  /**
   * Also serve on a Unix-domain socket at this path ({@code --unix-socket}), beside the port: the
   * way a sidecar (Envoy, nginx, an authenticating proxy) reaches the app. The file is owner-only
   * unless {@link #unixSocketGroup}.
   */
  @Parameter(property = "aerun.unixSocket")
  protected File unixSocket;

  /** With {@link #unixSocket}: the socket file's group may connect too ({@code rw-rw----}). */
  @Parameter(property = "aerun.unixSocketGroup", defaultValue = "false")
  protected boolean unixSocketGroup;

  /** The {@code java} to fork; by default the one running Maven. */
  @Parameter(property = "aerun.java")
  protected String javaExecutable;

  /**
   * Where the local API host of an app with {@code <app-engine-apis>} keeps the Datastore and
   * Blobstore between runs (and writes {@code WEB-INF/appengine-generated/}); {@code mvn clean}
   * deletes it with the rest of {@code target/}.
   */
  @Parameter(property = "aerun.apiData", defaultValue = "${project.build.directory}/aerun/api-data")
  protected File apiData;

  /** Deletes {@link #apiData} before the app starts. */
  @Parameter(property = "aerun.apiDataClear", defaultValue = "false")
  protected boolean apiDataClear;

  /**
   * An App Engine API host ({@code HOST:PORT}) to send the app's bundled-service calls to instead
   * of starting the local one.
   */
  @Parameter(property = "aerun.apiHost")
  protected String apiHost;

  /** Skips the goal. */
  @Parameter(property = "aerun.skip", defaultValue = "false")
  protected boolean skip;

  @Parameter(defaultValue = "${project}", readonly = true, required = true)
  protected MavenProject project;

  @Parameter(defaultValue = "${plugin}", readonly = true, required = true)
  private PluginDescriptor plugin;

  @Parameter(defaultValue = "${repositorySystemSession}", readonly = true, required = true)
  private RepositorySystemSession repositorySession;

  @Parameter(defaultValue = "${project.remotePluginRepositories}", readonly = true)
  private List<RemoteRepository> pluginRepositories;

  @Component private RepositorySystem repositorySystem;

  /** Where this plugin keeps its files: the unpacked runtime, logs, the pid of a started fork. */
  protected Path workDirectory() {
    return Path.of(project.getBuild().getDirectory(), "aerun");
  }

  /**
   * The runtime jar, from the dist zip resolved from the repository and unpacked under {@link
   * #workDirectory()} (again only when the zip changed).
   */
  protected Path runtimeJar() throws MojoExecutionException {
    File zip = resolve("runtime-main", "dist", "zip");
    Path home = workDirectory().resolve("runtime-" + plugin.getVersion());
    Path marker = home.resolve(".unpacked-from");
    String stamp = zip.getAbsolutePath() + "@" + zip.lastModified() + "/" + zip.length();
    try {
      if (!Files.isRegularFile(marker) || !Files.readString(marker).equals(stamp)) {
        unzip(zip.toPath(), home);
        Files.writeString(marker, stamp);
      }
    } catch (IOException e) {
      throw new MojoExecutionException("cannot unpack the aerun runtime " + zip + ": " + e, e);
    }
    return home.resolve("runtime-main.jar");
  }

  /**
   * {@code dev.aerun:ARTIFACT:CLASSIFIER:EXTENSION} of this plugin's version, from the repository.
   */
  protected File resolve(String artifactId, String classifier, String extension)
      throws MojoExecutionException {
    DefaultArtifact coordinates =
        new DefaultArtifact("dev.aerun", artifactId, classifier, extension, plugin.getVersion());
    try {
      return repositorySystem
          .resolveArtifact(
              repositorySession, new ArtifactRequest(coordinates, pluginRepositories, null))
          .getArtifact()
          .getFile();
    } catch (ArtifactResolutionException e) {
      throw new MojoExecutionException(
          "cannot resolve the aerun artifact " + coordinates + ": " + e.getMessage(), e);
    }
  }

  /** As {@link #resolve}, or null when no repository has the artifact. */
  protected File resolveOrNull(String artifactId, String classifier, String extension) {
    try {
      return resolve(artifactId, classifier, extension);
    } catch (MojoExecutionException e) {
      return null;
    }
  }

  private static void unzip(Path zip, Path into) throws IOException {
    Files.createDirectories(into);
    Path root = into.toAbsolutePath().normalize();
    try (ZipInputStream in = new ZipInputStream(Files.newInputStream(zip))) {
      for (ZipEntry entry = in.getNextEntry(); entry != null; entry = in.getNextEntry()) {
        Path target = root.resolve(entry.getName()).normalize();
        if (!target.startsWith(root)) {
          throw new IOException("entry outside the directory: " + entry.getName());
        }
        if (entry.isDirectory()) {
          Files.createDirectories(target);
        } else {
          Files.createDirectories(target.getParent());
          Files.copy((InputStream) in, target, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
  }

  /**
   * The forked runtime's command line: {@code java [jvmFlags] [-Dk=v] -jar runtime-main.jar
   * --development ... app}. The fork stops by itself when this Maven JVM ends ({@code
   * --parent-pid}), however it ends.
   */
  protected List<String> command(App app, boolean watch) throws MojoExecutionException {
    List<String> command = new ArrayList<>();
    command.add(javaExecutable != null ? javaExecutable : javaOfThisJvm());
    for (String flag : jvmFlags) {
      for (String part : flag.trim().split("\\s+")) {
        if (!part.isEmpty()) {
          command.add(part);
        }
      }
    }
    systemProperties.forEach((k, v) -> command.add("-D" + k + "=" + (v == null ? "" : v)));
    command.add("-jar");
    command.add(runtimeJar().toString());
    command.add("--development");
    if (watch) {
      command.add("--watch");
    }
    command.add("--port");
    command.add(String.valueOf(port));
    command.add("--address");
    command.add(address);
    if (mode != null && !mode.isBlank()) {
      command.add("--mode");
      command.add(mode);
    }
    if (ee != null && !ee.isBlank()) {
      command.add("--ee");
      command.add(ee);
    }
    if (trustedProxies != null && !trustedProxies.isBlank()) {
      command.add("--trusted-proxies");
      command.add(trustedProxies);
    }
    if (forwardedFrom != null && !forwardedFrom.isBlank()) {
      command.add("--forwarded-from");
      command.add(forwardedFrom);
    }
    if (devHosts != null && !devHosts.isBlank()) {
      command.add("--dev-hosts");
      command.add(devHosts);
    }
    if (unixSocket != null) {
      command.add("--unix-socket");
      command.add(unixSocket.getAbsolutePath());
      if (unixSocketGroup) {
        command.add("--unix-socket-group");
      }
    }
    command.add("--temp-dir");
    command.add(workDirectory().resolve("tmp").toString());
    command.add("--api-data");
    command.add(apiData.getAbsolutePath());
    if (apiDataClear) {
      command.add("--api-data-clear");
    }
    if (apiHost != null && !apiHost.isBlank()) {
      command.add("--api-host");
      command.add(apiHost);
    }
    command.add("--parent-pid");
    command.add(String.valueOf(ProcessHandle.current().pid()));
    if (!app.classpath().isEmpty()) {
      command.add("--classpath");
      command.add(
          String.join(File.pathSeparator, app.classpath().stream().map(Path::toString).toList()));
    }
    command.add(app.location().toString());
    return command;
  }

  /** A process builder for {@code command} with {@link #environment} added. */
  protected ProcessBuilder processBuilder(List<String> command) {
    ProcessBuilder builder = new ProcessBuilder(command);
    environment.forEach((k, v) -> builder.environment().put(k, v == null ? "" : v));
    builder.directory(project.getBasedir());
    return builder;
  }

  /**
   * What to serve: an exploded directory or a {@code .war}, and the class directories and jars
   * after its own {@code WEB-INF} ones.
   */
  protected record App(Path location, List<Path> classpath) {}

  /**
   * The project from its sources: the webapp directory, then {@code target/classes} and the
   * runtime-scoped dependencies, as {@code jetty:run} does; nothing is packaged.
   */
  protected App sourcesApp(File webappDirectory) throws MojoExecutionException {
    Path webapp = webappDirectory.toPath().toAbsolutePath();
    if (!Files.isRegularFile(webapp.resolve("WEB-INF/appengine-web.xml"))) {
      throw new MojoExecutionException(
          webapp + ": no WEB-INF/appengine-web.xml (set webappDirectory, or use aerun:run-war)");
    }
    List<Path> classpath = new ArrayList<>();
    classpath.add(Path.of(project.getBuild().getOutputDirectory()).toAbsolutePath());
    for (Artifact artifact : project.getArtifacts()) {
      String scope = artifact.getScope();
      boolean runtime =
          Artifact.SCOPE_COMPILE.equals(scope)
              || Artifact.SCOPE_RUNTIME.equals(scope)
              || Artifact.SCOPE_SYSTEM.equals(scope);
      if (runtime && artifact.getFile() != null && "jar".equals(artifact.getType())) {
        classpath.add(artifact.getFile().toPath().toAbsolutePath());
      }
    }
    return new App(webapp, classpath);
  }

  protected static String javaOfThisJvm() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }
}
