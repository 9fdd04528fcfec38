package dev.aerun.appengine.descriptor;

import dev.aerun.appengine.descriptor.AppEngineWebXml.StaticInclude;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The parser's mutable collector of an {@link AppEngineWebXml}: one field per element, defaults as
 * the reference runtime's; {@link #build()} copies it into the immutable model.
 */
final class DescriptorBuilder {
  String application;
  String version;
  String service;
  String runtime;
  String instanceClass;
  String serviceAccount;
  String publicRoot;
  String autoIdPolicy;
  String env;
  String entrypoint;
  String runtimeChannel;
  final Map<String, String> systemProperties = new LinkedHashMap<>();
  final Map<String, String> systemPropertyLocations = new LinkedHashMap<>();
  final Map<String, String> envVariables = new LinkedHashMap<>();
  final Map<String, String> buildEnvVariables = new LinkedHashMap<>();
  boolean staticFilesDeclared;
  final List<StaticInclude> staticIncludes = new ArrayList<>();
  final List<String> staticExcludes = new ArrayList<>();
  final List<String> resourceIncludes = new ArrayList<>();
  final List<String> resourceExcludes = new ArrayList<>();
  Long defaultExpirationSeconds;
  boolean sessionsEnabled;
  boolean asyncEnabled;
  String asyncQueueName;
  Boolean threadsafe;
  boolean appEngineApis;
  boolean sslEnabled = true;
  UrlStreamHandler urlStreamHandler;
  final List<String> inboundServices = new ArrayList<>();
  boolean warmupRequestsEnabled = true;
  boolean precompilationEnabled = true;
  boolean codeLock;
  boolean vm;
  Boolean useGoogleConnectorJ;
  Scaling scaling;
  VpcAccessConnector vpcAccessConnector;
  final List<PrioritySpecifier> classLoaderConfig = new ArrayList<>();
  Staging staging;
  final List<AdminConsolePage> adminConsolePages = new ArrayList<>();
  final List<StaticErrorHandler> staticErrorHandlers = new ArrayList<>();
  ApiConfig apiConfig;
  Pagespeed pagespeed;
  final Map<String, String> betaSettings = new LinkedHashMap<>();
  final Map<String, String> vmSettings = new LinkedHashMap<>();
  final Map<String, String> healthCheck = new LinkedHashMap<>();
  final Map<String, String> livenessCheck = new LinkedHashMap<>();
  final Map<String, String> readinessCheck = new LinkedHashMap<>();
  final Map<String, String> resources = new LinkedHashMap<>();
  Network network;
  final List<Permission> userPermissions = new ArrayList<>();
  final List<String> appEngineBundledServices = new ArrayList<>();
  final List<String> warnings = new ArrayList<>();

  AppEngineWebXml build() {
    return new AppEngineWebXml(this);
  }
}
