package dev.aerun.stage;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * The files a platform deploys, written from a {@link DeploymentPlan} and the image {@code stage}
 * built. The mapping (element to field) is documented in {@code docs/DEPLOY.md}; keep both in step.
 *
 * <p>None of them sets {@code GAE_ENV} (it would tell the runtime it runs behind App Engine's front
 * end, which strips client-sent {@code X-AppEngine-*} headers; Cloud Run and GKE do not) or trusted
 * proxies: no peer is trusted for platform headers. Cloud Run's and GKE's front ends terminate TLS
 * and set {@code X-Forwarded-For}/{@code X-Forwarded-Proto}, so their containers are started with
 * {@code --forwarded-from}: trusted for those only ({@link #CLOUD_RUN_FORWARDERS}, {@link
 * #GKE_FORWARDERS}).
 */
final class Manifests {
  /** The port the runtime image serves on ({@code $PORT}). */
  static final int PORT = 8080;

  /**
   * Cloud Run's peers trusted for forwarding headers: every one, since only Cloud Run's own front
   * end reaches the container's port (its address is not documented), and it replaces a client's
   * {@code X-Forwarded-For}/{@code X-Forwarded-Proto} with its own.
   */
  static final String CLOUD_RUN_FORWARDERS = "all";

  /**
   * GKE's: the source ranges of Google Cloud's load balancer proxies (GFEs) and health checks, from
   * which an Ingress's external Application Load Balancer reaches the pods (container-native load
   * balancing); other pods of the cluster stay untrusted.
   */
  static final String GKE_FORWARDERS =
      "35.191.0.0/16,130.211.0.0/22,2600:2d00:1:b029::/64,2600:2d00:1:1::/64";

  /** Seconds Kubernetes waits before SIGTERM so that endpoints stop routing to a pod. */
  static final int PRE_STOP_SECONDS = 5;

  private Manifests() {}

  /** Cloud Run: a Knative Service, on HTTP/1. */
  static String cloudRun(DeploymentPlan plan, String image) {
    return cloudRun(plan, image, false);
  }

  /**
   * Cloud Run: a Knative Service.
   *
   * @param http2 HTTP/2 end to end: the container port is named {@code h2c}, which tells Cloud Run
   *     to forward requests as HTTP/2 cleartext with prior knowledge instead of downgrading them to
   *     HTTP/1 (the runtime speaks both on its port)
   */
  static String cloudRun(DeploymentPlan plan, String image, boolean http2) {
    Map<String, Object> annotations = new LinkedHashMap<>();
    annotations.put("autoscaling.knative.dev/minScale", String.valueOf(plan.minInstances()));
    plan.maxInstances()
        .ifPresent(max -> annotations.put("autoscaling.knative.dev/maxScale", String.valueOf(max)));
    annotations.put("run.googleapis.com/startup-cpu-boost", "true");

    Map<String, Object> container = new LinkedHashMap<>();
    container.put("image", image);
    container.put("args", List.of("--forwarded-from", CLOUD_RUN_FORWARDERS));
    container.put("ports", List.of(map("name", http2 ? "h2c" : "http1", "containerPort", PORT)));
    if (!plan.env().isEmpty()) {
      container.put("env", env(plan));
    }
    container.put("resources", map("limits", resources(plan)));
    container.put("startupProbe", startupProbe(plan));
    container.put("livenessProbe", httpProbe("/_ah/health", 10, 3));

    Map<String, Object> podSpec = new LinkedHashMap<>();
    podSpec.put("containerConcurrency", plan.concurrency());
    podSpec.put("timeoutSeconds", requestTimeoutSeconds(plan));
    podSpec.put("containers", List.of(container));

    Map<String, Object> service = new LinkedHashMap<>();
    service.put("apiVersion", "serving.knative.dev/v1");
    service.put("kind", "Service");
    service.put("metadata", map("name", plan.name()));
    service.put(
        "spec", map("template", map("metadata", map("annotations", annotations), "spec", podSpec)));
    return yaml().dump(service);
  }

  /** GKE: a Deployment, a Service and (unless scaling is manual) a HorizontalPodAutoscaler. */
  static String kubernetes(DeploymentPlan plan, String image) {
    Map<String, Object> labels = map("app", plan.name());
    Map<String, Object> container = new LinkedHashMap<>();
    container.put("name", "app");
    container.put("image", image);
    container.put("args", List.of("--forwarded-from", GKE_FORWARDERS));
    container.put("ports", List.of(map("name", "http", "containerPort", PORT)));
    if (!plan.env().isEmpty()) {
      container.put("env", env(plan));
    }
    Map<String, Object> resources = resources(plan);
    container.put("resources", map("requests", resources, "limits", resources));
    container.put("startupProbe", startupProbe(plan));
    container.put("readinessProbe", httpProbe("/_ah/health", 5, 1));
    container.put("livenessProbe", httpProbe("/_ah/health", 10, 3));
    // The image has no shell: Kubernetes' own sleep action keeps the pod serving while the
    // endpoints controller takes it out of the Service, then SIGTERM starts the drain.
    container.put("lifecycle", map("preStop", map("sleep", map("seconds", PRE_STOP_SECONDS))));

    Map<String, Object> podSpec = new LinkedHashMap<>();
    podSpec.put("terminationGracePeriodSeconds", terminationGrace(plan));
    podSpec.put(
        "securityContext", map("runAsNonRoot", true, "runAsUser", 65532, "runAsGroup", 65532));
    podSpec.put("containers", List.of(container));

    Map<String, Object> deploymentSpec = new LinkedHashMap<>();
    deploymentSpec.put("replicas", Math.max(1, plan.minInstances()));
    deploymentSpec.put("selector", map("matchLabels", labels));
    deploymentSpec.put("template", map("metadata", map("labels", labels), "spec", podSpec));

    List<Object> documents = new ArrayList<>();
    documents.add(
        map(
            "apiVersion",
            "apps/v1",
            "kind",
            "Deployment",
            "metadata",
            map("name", plan.name(), "labels", labels),
            "spec",
            deploymentSpec));
    documents.add(
        map(
            "apiVersion",
            "v1",
            "kind",
            "Service",
            "metadata",
            map("name", plan.name(), "labels", labels),
            "spec",
            map(
                "selector",
                labels,
                "ports",
                List.of(map("name", "http", "port", 80, "targetPort", PORT)))));
    if (!plan.scaling().equals("manual")) {
      Map<String, Object> hpaSpec = new LinkedHashMap<>();
      hpaSpec.put(
          "scaleTargetRef",
          map("apiVersion", "apps/v1", "kind", "Deployment", "name", plan.name()));
      hpaSpec.put("minReplicas", Math.max(1, plan.minInstances()));
      hpaSpec.put("maxReplicas", plan.maxInstances().orElse(DEFAULT_MAX_REPLICAS));
      hpaSpec.put(
          "metrics",
          List.of(
              map(
                  "type",
                  "Resource",
                  "resource",
                  map(
                      "name",
                      "cpu",
                      "target",
                      map("type", "Utilization", "averageUtilization", plan.targetCpuPercent())))));
      documents.add(
          map(
              "apiVersion",
              "autoscaling/v2",
              "kind",
              "HorizontalPodAutoscaler",
              "metadata",
              map("name", plan.name(), "labels", labels),
              "spec",
              hpaSpec));
    }
    return yaml().dumpAll(documents.iterator());
  }

  /** An unbounded App Engine service's HorizontalPodAutoscaler bound. */
  static final int DEFAULT_MAX_REPLICAS = 20;

  /** App Engine flexible: a custom-runtime {@code app.yaml}. */
  static String appYaml(DeploymentPlan plan) {
    Map<String, Object> app = new LinkedHashMap<>();
    app.put("runtime", "custom");
    app.put("env", "flex");
    app.put("service", plan.name());
    if (plan.scaling().equals("manual")) {
      app.put("manual_scaling", map("instances", plan.minInstances()));
    } else {
      Map<String, Object> scaling = new LinkedHashMap<>();
      scaling.put("min_num_instances", Math.max(1, plan.minInstances()));
      scaling.put("max_num_instances", plan.maxInstances().orElse(DEFAULT_MAX_REPLICAS));
      scaling.put("cpu_utilization", map("target_utilization", plan.targetCpuPercent() / 100.0));
      scaling.put("target_concurrent_requests", plan.concurrency());
      app.put("automatic_scaling", scaling);
    }
    int cpus = Integer.parseInt(plan.instanceClass().cpu);
    // Flexible wants 0.9 GB or more per CPU.
    double memoryGb = Math.max(0.9 * cpus, plan.instanceClass().memoryMb / 1024.0);
    app.put("resources", map("cpu", cpus, "memory_gb", Math.round(memoryGb * 10) / 10.0));
    if (!plan.env().isEmpty()) {
      app.put("env_variables", new LinkedHashMap<>(plan.env()));
    }
    app.put("liveness_check", map("path", "/_ah/health"));
    app.put("readiness_check", map("path", "/_ah/health", "app_start_timeout_sec", 300));
    return yaml().dump(app);
  }

  /** App Engine flexible's {@code Dockerfile}: the runtime image plus the app in {@code /app}. */
  static String dockerfile(DeploymentPlan plan, String runtimeImage) {
    StringBuilder s = new StringBuilder();
    s.append("# The app on the aerun ").append(plan.javaRuntime()).append(" runtime image.\n");
    s.append("# Push that image (docs/DEPLOY.md in the aerun repository) and pass its name:\n");
    s.append("#   --build-arg RUNTIME_IMAGE=REGION-docker.pkg.dev/PROJECT/aerun/")
        .append(plan.javaRuntime())
        .append("@sha256:...\n");
    s.append("ARG RUNTIME_IMAGE=").append(runtimeImage).append('\n');
    s.append("FROM ${RUNTIME_IMAGE}\n");
    s.append("COPY app/ /app/\n");
    for (Map.Entry<String, String> e : plan.env().entrySet()) {
      if (!e.getKey().matches("[A-Za-z_][A-Za-z0-9_]*")) { // the descriptor reader refuses others
        throw new IllegalArgumentException("not an environment variable name: " + e.getKey());
      }
      s.append("ENV ")
          .append(e.getKey())
          .append('=')
          .append(dockerQuote(e.getValue()))
          .append('\n');
    }
    return s.toString();
  }

  /**
   * {@code value} as one double-quoted Dockerfile word: the quote, the escape character and {@code
   * $} escaped, so no byte of it ends the string, the instruction or expands a variable. A line
   * break cannot be carried at all (see {@link DeploymentPlan}).
   */
  static String dockerQuote(String value) {
    if (value.indexOf('\n') >= 0 || value.indexOf('\r') >= 0) {
      throw new IllegalArgumentException("a Dockerfile ENV value cannot hold a line break");
    }
    return "\"" + value.replace("\\", "\\\\").replace("\"", "\\\"").replace("$", "\\$") + "\"";
  }

  private static List<Object> env(DeploymentPlan plan) {
    List<Object> env = new ArrayList<>();
    plan.env().forEach((k, v) -> env.add(map("name", k, "value", v)));
    return env;
  }

  private static Map<String, Object> resources(DeploymentPlan plan) {
    return map("cpu", plan.instanceClass().cpu, "memory", plan.instanceClass().memory());
  }

  /** {@code /_ah/warmup} when warm-up requests are on, else the port accepting connections. */
  private static Map<String, Object> startupProbe(DeploymentPlan plan) {
    Map<String, Object> probe = new LinkedHashMap<>();
    if (plan.warmup()) {
      probe.put("httpGet", map("path", "/_ah/warmup", "port", PORT));
    } else {
      probe.put("tcpSocket", map("port", PORT));
    }
    probe.put("periodSeconds", 1);
    probe.put("timeoutSeconds", 1);
    probe.put("failureThreshold", 240);
    return probe;
  }

  private static Map<String, Object> httpProbe(String path, int period, int failures) {
    return map(
        "httpGet",
        map("path", path, "port", PORT),
        "periodSeconds",
        period,
        "failureThreshold",
        failures);
  }

  /** App Engine's request deadline: 10 minutes automatic, Cloud Run's most (1 h) otherwise. */
  private static int requestTimeoutSeconds(DeploymentPlan plan) {
    return plan.scaling().equals("automatic") ? 600 : 3600;
  }

  /** Room for the pre-stop pause, the drain, and a margin before SIGKILL. */
  static int terminationGrace(DeploymentPlan plan) {
    return PRE_STOP_SECONDS + plan.shutdownGraceSeconds() + 5;
  }

  private static Map<String, Object> map(Object... keyValues) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) {
      m.put((String) keyValues[i], keyValues[i + 1]);
    }
    return m;
  }

  private static Yaml yaml() {
    DumperOptions options = new DumperOptions();
    options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
    options.setIndicatorIndent(0);
    options.setExplicitStart(false);
    options.setLineBreak(DumperOptions.LineBreak.UNIX);
    options.setWidth(120);
    return new Yaml(options);
  }
}
