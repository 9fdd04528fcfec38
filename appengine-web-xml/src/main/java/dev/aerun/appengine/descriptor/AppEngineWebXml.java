package dev.aerun.appengine.descriptor;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The parsed content of an app's {@code WEB-INF/appengine-web.xml}, immutable.
 *
 * <p>Obtain one from {@link AppEngineWebXmlParser}. Nothing returned is null: absent optional
 * elements are {@link Optional#empty()}, absent lists and maps are empty and unmodifiable, and
 * boolean elements have the documented default of the reference runtime. Maps keep the order of the
 * file. {@link #empty()} is the descriptor of an app without the file.
 *
 * <p>Only {@code <service>} is exposed: the legacy {@code <module>} is accepted as its synonym (a
 * file with both is rejected by the parser).
 */
public final class AppEngineWebXml {

  /**
   * One {@code <static-files><include path expiration?>} with its {@code <http-header>}s.
   *
   * @param path the path pattern, e.g. {@code /**.png}
   * @param expirationSeconds the {@code expiration} attribute in seconds, if given
   * @param httpHeaders header name to value, file order; names unique case-insensitively
   */
  public record StaticInclude(
      String path, Optional<Long> expirationSeconds, Map<String, String> httpHeaders) {
    /** Copies the header map into an unmodifiable one. */
    public StaticInclude {
      httpHeaders = Collections.unmodifiableMap(new LinkedHashMap<>(httpHeaders));
    }
  }

  /**
   * The {@code <static-files>} block.
   *
   * @param declared whether the element was present in the file
   * @param includes the includes in file order
   * @param excludes the exclude path patterns in file order
   */
  public record StaticFiles(boolean declared, List<StaticInclude> includes, List<String> excludes) {
    /** Copies lists into unmodifiable ones. */
    public StaticFiles {
      includes = List.copyOf(includes);
      excludes = List.copyOf(excludes);
    }

    /**
     * True when no include is given, which the reference runtime treats as "every file (minus
     * excludes) is static". This is also the case of an empty {@code <static-files/>}.
     */
    public boolean includesEverything() {
      return includes.isEmpty();
    }

    /** True for a present but empty {@code <static-files/>} element. */
    public boolean declaredEmpty() {
      return declared && includes.isEmpty() && excludes.isEmpty();
    }
  }

  private final Optional<String> application;
  private final Optional<String> version;
  private final Optional<String> service;
  private final Optional<String> runtime;
  private final Optional<String> instanceClass;
  private final Optional<String> serviceAccount;
  private final Optional<String> publicRoot;
  private final Optional<String> autoIdPolicy;
  private final Optional<String> env;
  private final Optional<String> entrypoint;
  private final Optional<String> runtimeChannel;
  private final Map<String, String> systemProperties;
  private final Map<String, String> systemPropertyLocations;
  private final Map<String, String> envVariables;
  private final Map<String, String> buildEnvVariables;
  private final StaticFiles staticFiles;
  private final ResourceFiles resourceFiles;
  private final Optional<Long> defaultExpirationSeconds;
  private final boolean sessionsEnabled;
  private final AsyncSessionPersistence asyncSessionPersistence;
  private final Optional<Boolean> threadsafe;
  private final boolean appEngineApis;
  private final boolean sslEnabled;
  private final Optional<UrlStreamHandler> urlStreamHandler;
  private final List<String> inboundServices;
  private final boolean warmupRequestsEnabled;
  private final boolean precompilationEnabled;
  private final boolean codeLock;
  private final boolean vm;
  private final Optional<Boolean> useGoogleConnectorJ;
  private final Optional<Scaling> scaling;
  private final Optional<VpcAccessConnector> vpcAccessConnector;
  private final List<PrioritySpecifier> classLoaderConfig;
  private final Staging staging;
  private final List<AdminConsolePage> adminConsolePages;
  private final List<StaticErrorHandler> staticErrorHandlers;
  private final Optional<ApiConfig> apiConfig;
  private final Optional<Pagespeed> pagespeed;
  private final Map<String, String> betaSettings;
  private final Map<String, String> vmSettings;
  private final Map<String, String> healthCheck;
  private final Map<String, String> livenessCheck;
  private final Map<String, String> readinessCheck;
  private final Map<String, String> resources;
  private final Optional<Network> network;
  private final List<Permission> userPermissions;
  private final List<String> appEngineBundledServices;
  private final List<String> warnings;

  AppEngineWebXml(DescriptorBuilder b) {
    application = Optional.ofNullable(b.application);
    version = Optional.ofNullable(b.version);
    service = Optional.ofNullable(b.service);
    runtime = Optional.ofNullable(b.runtime);
    instanceClass = Optional.ofNullable(b.instanceClass);
    serviceAccount = Optional.ofNullable(b.serviceAccount);
    publicRoot = Optional.ofNullable(b.publicRoot);
    autoIdPolicy = Optional.ofNullable(b.autoIdPolicy);
    env = Optional.ofNullable(b.env);
    entrypoint = Optional.ofNullable(b.entrypoint);
    runtimeChannel = Optional.ofNullable(b.runtimeChannel);
    systemProperties = copy(b.systemProperties);
    systemPropertyLocations = copy(b.systemPropertyLocations);
    envVariables = copy(b.envVariables);
    buildEnvVariables = copy(b.buildEnvVariables);
    staticFiles = new StaticFiles(b.staticFilesDeclared, b.staticIncludes, b.staticExcludes);
    resourceFiles = new ResourceFiles(b.resourceIncludes, b.resourceExcludes);
    defaultExpirationSeconds = Optional.ofNullable(b.defaultExpirationSeconds);
    sessionsEnabled = b.sessionsEnabled;
    asyncSessionPersistence =
        new AsyncSessionPersistence(b.asyncEnabled, Optional.ofNullable(b.asyncQueueName));
    threadsafe = Optional.ofNullable(b.threadsafe);
    appEngineApis = b.appEngineApis;
    sslEnabled = b.sslEnabled;
    urlStreamHandler = Optional.ofNullable(b.urlStreamHandler);
    inboundServices = List.copyOf(b.inboundServices);
    warmupRequestsEnabled = b.warmupRequestsEnabled;
    precompilationEnabled = b.precompilationEnabled;
    codeLock = b.codeLock;
    vm = b.vm;
    useGoogleConnectorJ = Optional.ofNullable(b.useGoogleConnectorJ);
    scaling = Optional.ofNullable(b.scaling);
    vpcAccessConnector = Optional.ofNullable(b.vpcAccessConnector);
    classLoaderConfig = List.copyOf(b.classLoaderConfig);
    staging = b.staging == null ? Staging.NONE : b.staging;
    adminConsolePages = List.copyOf(b.adminConsolePages);
    staticErrorHandlers = List.copyOf(b.staticErrorHandlers);
    apiConfig = Optional.ofNullable(b.apiConfig);
    pagespeed = Optional.ofNullable(b.pagespeed);
    betaSettings = copy(b.betaSettings);
    vmSettings = copy(b.vmSettings);
    healthCheck = copy(b.healthCheck);
    livenessCheck = copy(b.livenessCheck);
    readinessCheck = copy(b.readinessCheck);
    resources = copy(b.resources);
    network = Optional.ofNullable(b.network);
    userPermissions = List.copyOf(b.userPermissions);
    appEngineBundledServices = List.copyOf(b.appEngineBundledServices);
    warnings = List.copyOf(b.warnings);
  }

  private static <K, V> Map<K, V> copy(Map<K, V> m) {
    return Collections.unmodifiableMap(new LinkedHashMap<>(m));
  }

  /** The descriptor of an app without {@code appengine-web.xml}: every element absent/default. */
  public static AppEngineWebXml empty() {
    return new DescriptorBuilder().build();
  }

  /** {@code <application>}: the project id. */
  public Optional<String> application() {
    return application;
  }

  /** {@code <version>}. */
  public Optional<String> version() {
    return version;
  }

  /** {@code <service>}, or the legacy {@code <module>}. */
  public Optional<String> service() {
    return service;
  }

  /** {@code <runtime>}, e.g. {@code java17}, as written (trimmed). */
  public Optional<String> runtime() {
    return runtime;
  }

  /** {@code <instance-class>}, e.g. {@code F2}. */
  public Optional<String> instanceClass() {
    return instanceClass;
  }

  /** {@code <service-account>}. */
  public Optional<String> serviceAccount() {
    return serviceAccount;
  }

  /** {@code <public-root>}. */
  public Optional<String> publicRoot() {
    return publicRoot;
  }

  /** {@code <auto-id-policy>} ({@code default} or {@code legacy}). */
  public Optional<String> autoIdPolicy() {
    return autoIdPolicy;
  }

  /** {@code <env>} ({@code flex}, {@code standard}, ...). */
  public Optional<String> env() {
    return env;
  }

  /** {@code <entrypoint>} (flex). */
  public Optional<String> entrypoint() {
    return entrypoint;
  }

  /** {@code <runtime-channel>}. */
  public Optional<String> runtimeChannel() {
    return runtimeChannel;
  }

  /**
   * {@code <system-properties>}: name to value in file order. A name repeated later replaces the
   * earlier value but keeps its position. Names are as written (case preserved).
   */
  public Map<String, String> systemProperties() {
    return systemProperties;
  }

  /**
   * Where each of {@link #systemProperties()} was declared, by name, as {@code
   * <file>:<line>:<column>: property:} (the prefix of a {@link DescriptorException} message): the
   * last declaration of a repeated name. Empty for a descriptor not read from a file.
   */
  public Map<String, String> systemPropertyLocations() {
    return systemPropertyLocations;
  }

  /**
   * The {@link #systemProperties()} whose name starts with {@code appengine.} (case-insensitive),
   * in file order: the ones the launcher sets as JVM system properties before the app loads.
   */
  public Map<String, String> appEngineProperties() {
    Map<String, String> out = new LinkedHashMap<>();
    systemProperties.forEach(
        (k, v) -> {
          if (k.toLowerCase(Locale.ROOT).startsWith("appengine.")) {
            out.put(k, v);
          }
        });
    return Collections.unmodifiableMap(out);
  }

  /**
   * Whether {@code name} is one the platform sets itself ({@code PORT}, {@code
   * GOOGLE_CLOUD_PROJECT}, {@code GAE_*}): {@code <env-variables>} may name it (with a warning),
   * and the app sees the platform's value where there is one, but the runtime never takes its own
   * port, trust policy or ids from the descriptor.
   */
  public static boolean isPlatformEnvVariable(String name) {
    return name.equals("PORT") || name.equals("GOOGLE_CLOUD_PROJECT") || name.startsWith("GAE_");
  }

  /**
   * Whether {@code <env-variables>} may not set {@code name} at all: {@code AERUN_*}, which the
   * launcher reads before the descriptor.
   */
  public static boolean isReservedEnvVariable(String name) {
    return name.startsWith("AERUN_");
  }

  /** {@code <env-variables>}: name to value in file order (never an {@code AERUN_*} name). */
  public Map<String, String> envVariables() {
    return envVariables;
  }

  /** {@code <build-env-variables>}: name to value in file order. */
  public Map<String, String> buildEnvVariables() {
    return buildEnvVariables;
  }

  /** {@code <static-files>}; {@code declared()} false when absent. */
  public StaticFiles staticFiles() {
    return staticFiles;
  }

  /** {@code <resource-files>}; empty lists when absent. */
  public ResourceFiles resourceFiles() {
    return resourceFiles;
  }

  /**
   * Top-level {@code <default-expiration>} in seconds. Not in the reference schema; accepted for
   * parity with {@code app.yaml}'s {@code default_expiration}.
   */
  public Optional<Long> defaultExpirationSeconds() {
    return defaultExpirationSeconds;
  }

  /** {@code <sessions-enabled>}; default false. */
  public boolean sessionsEnabled() {
    return sessionsEnabled;
  }

  /** {@code <async-session-persistence>}; disabled when absent. */
  public AsyncSessionPersistence asyncSessionPersistence() {
    return asyncSessionPersistence;
  }

  /** {@code <threadsafe>}; empty when absent (the Java 8+ runtimes treat absent as true). */
  public Optional<Boolean> threadsafe() {
    return threadsafe;
  }

  /** {@code <app-engine-apis>}; default false. */
  public boolean appEngineApis() {
    return appEngineApis;
  }

  /** {@code <ssl-enabled>}; default true. */
  public boolean sslEnabled() {
    return sslEnabled;
  }

  /** {@code <url-stream-handler>}. */
  public Optional<UrlStreamHandler> urlStreamHandler() {
    return urlStreamHandler;
  }

  /** {@code <inbound-services><service>} values in file order, duplicates removed. */
  public List<String> inboundServices() {
    return inboundServices;
  }

  /** {@code <warmup-requests-enabled>}; default true (warmup is on unless explicitly false). */
  public boolean warmupRequestsEnabled() {
    return warmupRequestsEnabled;
  }

  /** {@code <precompilation-enabled>}; default true. */
  public boolean precompilationEnabled() {
    return precompilationEnabled;
  }

  /** {@code <code-lock>}; default false. */
  public boolean codeLock() {
    return codeLock;
  }

  /** {@code <vm>}; default false. */
  public boolean vm() {
    return vm;
  }

  /** {@code <use-google-connector-j>}. */
  public Optional<Boolean> useGoogleConnectorJ() {
    return useGoogleConnectorJ;
  }

  /** The one scaling block, if any (the parser rejects more than one). */
  public Optional<Scaling> scaling() {
    return scaling;
  }

  /** {@code <vpc-access-connector>}. */
  public Optional<VpcAccessConnector> vpcAccessConnector() {
    return vpcAccessConnector;
  }

  /** {@code <class-loader-config>} priority specifiers in file order. */
  public List<PrioritySpecifier> classLoaderConfig() {
    return classLoaderConfig;
  }

  /** {@code <staging>}; all fields empty when absent. */
  public Staging staging() {
    return staging;
  }

  /** {@code <admin-console>} pages. */
  public List<AdminConsolePage> adminConsolePages() {
    return adminConsolePages;
  }

  /** {@code <static-error-handlers>} handlers. */
  public List<StaticErrorHandler> staticErrorHandlers() {
    return staticErrorHandlers;
  }

  /** {@code <api-config>}. */
  public Optional<ApiConfig> apiConfig() {
    return apiConfig;
  }

  /** {@code <pagespeed>}. */
  public Optional<Pagespeed> pagespeed() {
    return pagespeed;
  }

  /** {@code <beta-settings><setting name value>} in file order. */
  public Map<String, String> betaSettings() {
    return betaSettings;
  }

  /** {@code <vm-settings><setting name value>} in file order. */
  public Map<String, String> vmSettings() {
    return vmSettings;
  }

  /**
   * {@code <health-check>} (or legacy {@code <vm-health-check>}) children as text; empty if absent.
   */
  public Map<String, String> healthCheck() {
    return healthCheck;
  }

  /** {@code <liveness-check>} children as text; empty if absent. */
  public Map<String, String> livenessCheck() {
    return livenessCheck;
  }

  /** {@code <readiness-check>} children as text; empty if absent. */
  public Map<String, String> readinessCheck() {
    return readinessCheck;
  }

  /** {@code <resources>} children ({@code cpu}, {@code memory-gb}, {@code disk-size-gb}). */
  public Map<String, String> resources() {
    return resources;
  }

  /** {@code <network>}. */
  public Optional<Network> network() {
    return network;
  }

  /** {@code <user-permissions>}. */
  public List<Permission> userPermissions() {
    return userPermissions;
  }

  /** {@code <app-engine-bundled-services><api>} values. */
  public List<String> appEngineBundledServices() {
    return appEngineBundledServices;
  }

  /**
   * What the parser accepted but ignored or changed, in file order, each one line of the form
   * {@code <file>:<line>:<column>: <element>: <what was done>} (as {@link DescriptorException}):
   * the launcher logs them as warnings. Never contains an environment variable's value.
   */
  public List<String> warnings() {
    return warnings;
  }
}
