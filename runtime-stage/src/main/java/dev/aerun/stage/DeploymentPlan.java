package dev.aerun.stage;

import dev.aerun.appengine.descriptor.AppEngineWebXml;
import dev.aerun.appengine.descriptor.AutomaticScaling;
import dev.aerun.appengine.descriptor.BasicScaling;
import dev.aerun.appengine.descriptor.ManualScaling;
import dev.aerun.appengine.descriptor.Scaling;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What an app's {@code appengine-web.xml} asks of a platform, in the platform-neutral terms every
 * generated manifest is written from: one source for Cloud Run, Kubernetes and App Engine flexible.
 *
 * @param name the service name (DNS label: lowercase letters, digits, dashes)
 * @param javaRuntime {@code java17}, {@code java21} or {@code java25}: which runtime image
 * @param scaling {@code automatic}, {@code basic} or {@code manual}
 * @param instanceClass memory and CPUs
 * @param concurrency requests one instance serves at once ({@code max-concurrent-requests})
 * @param minInstances instances kept running (0: scale to zero where the platform can)
 * @param maxInstances the most instances, if bounded
 * @param targetCpuPercent the CPU utilization autoscalers aim for
 * @param warmup whether the platform's start-up check is {@code /_ah/warmup}
 * @param env {@code <env-variables>}, in file order
 * @param shutdownGraceSeconds how long the runtime drains after SIGTERM
 * @param notes what was dropped or assumed, for the person staging
 */
public record DeploymentPlan(
    String name,
    String javaRuntime,
    String scaling,
    InstanceClass instanceClass,
    int concurrency,
    int minInstances,
    Optional<Integer> maxInstances,
    int targetCpuPercent,
    boolean warmup,
    Map<String, String> env,
    int shutdownGraceSeconds,
    List<String> notes) {

  /** App Engine's default {@code max-concurrent-requests}. */
  static final int DEFAULT_CONCURRENCY = 10;

  /** App Engine's default {@code target-cpu-utilization} (0.6). */
  static final int DEFAULT_TARGET_CPU_PERCENT = 60;

  /** The runtime's default drain after SIGTERM, what Cloud Run allows before SIGKILL. */
  static final int SHUTDOWN_GRACE_SECONDS = 10;

  /**
   * Maps a descriptor.
   *
   * @param fallbackName the name when the descriptor names no service (the app's file name)
   * @throws StageException if the descriptor asks for something no target can express
   */
  public static DeploymentPlan from(AppEngineWebXml d, String fallbackName) throws StageException {
    List<String> notes = new ArrayList<>();
    String name = dnsLabel(d.service().orElse(fallbackName));
    String runtime = javaRuntime(d.runtime(), notes);
    Scaling scaling = d.scaling().orElse(null);
    String kind;
    int concurrency = DEFAULT_CONCURRENCY;
    int min = 0;
    Optional<Integer> max = Optional.empty();
    int cpu = DEFAULT_TARGET_CPU_PERCENT;
    InstanceClass defaultClass = InstanceClass.F1;
    if (scaling == null || scaling instanceof AutomaticScaling) {
      kind = "automatic";
      if (scaling instanceof AutomaticScaling a) {
        concurrency = a.maxConcurrentRequests().orElse(DEFAULT_CONCURRENCY);
        min = a.minInstances().or(a::minNumInstances).orElse(0);
        max = a.maxInstances().or(a::maxNumInstances);
        cpu = a.targetCpuUtilization().map(u -> (int) Math.round(u * 100)).orElse(cpu);
        if (!a.customMetrics().isEmpty()) {
          throw new StageException(
              "<automatic-scaling><custom-metrics> cannot be mapped: Cloud Run scales on"
                  + " concurrency and the generated HorizontalPodAutoscaler on CPU; remove it");
        }
        if (max.isPresent() && max.get() < min) {
          throw new StageException(
              "<automatic-scaling>: max-instances "
                  + max.get()
                  + " is below min-instances "
                  + min
                  + "; no platform can satisfy both");
        }
        if (a.minIdleInstances().isPresent() || a.maxIdleInstances().isPresent()) {
          notes.add(
              "min/max-idle-instances have no equivalent; min-instances bounds idle capacity");
        }
        if (a.minPendingLatency().isPresent() || a.maxPendingLatency().isPresent()) {
          notes.add("min/max-pending-latency have no equivalent and are ignored");
        }
      }
    } else if (scaling instanceof BasicScaling b) {
      kind = "basic";
      defaultClass = InstanceClass.B2;
      max = Optional.of(b.maxInstances());
      if (b.idleTimeoutSeconds().isPresent()) {
        notes.add(
            "basic-scaling idle-timeout has no equivalent: Cloud Run scales idle"
                + " instances to zero on its own schedule");
      }
    } else {
      kind = "manual";
      defaultClass = InstanceClass.B2;
      int instances = ((ManualScaling) scaling).instances();
      if (instances < 1) {
        throw new StageException(
            "<manual-scaling><instances>"
                + instances
                + "</instances> cannot be mapped: a"
                + " service needs at least one instance");
      }
      min = instances;
      max = Optional.of(instances);
    }
    InstanceClass instanceClass =
        d.instanceClass().isPresent() ? InstanceClass.parse(d.instanceClass().get()) : defaultClass;
    checkEnv(d.envVariables());
    return new DeploymentPlan(
        name,
        runtime,
        kind,
        instanceClass,
        concurrency,
        min,
        max,
        cpu,
        d.warmupRequestsEnabled(),
        new LinkedHashMap<>(d.envVariables()),
        SHUTDOWN_GRACE_SECONDS,
        notes);
  }

  /**
   * The {@code <env-variables>} every target can carry: a value with a line break cannot be written
   * on a Dockerfile's {@code ENV} line (the break would end the instruction and start another), so
   * it is refused, naming the variable (never its value).
   */
  private static void checkEnv(Map<String, String> env) throws StageException {
    for (Map.Entry<String, String> e : env.entrySet()) {
      String value = e.getValue();
      if (value.indexOf('\n') >= 0 || value.indexOf('\r') >= 0) {
        throw new StageException(
            "<env-var name=\""
                + e.getKey()
                + "\"> cannot be staged: its value has a line break, which a Dockerfile ENV"
                + " instruction cannot carry (keep such a value in a file of the app or a secret)");
      }
    }
  }

  private static String javaRuntime(Optional<String> runtime, List<String> notes)
      throws StageException {
    String value = runtime.orElse("");
    switch (value) {
      case "java17", "java21", "java25" -> {
        return value;
      }
      case "" -> {
        notes.add("no <runtime> in the descriptor: staged for java17");
        return "java17";
      }
      case "java8", "java11" -> {
        notes.add("<runtime>" + value + "</runtime> is a legacy runtime: staged for java17");
        return "java17";
      }
      default ->
          throw new StageException(
              "<runtime>"
                  + value
                  + "</runtime> has no runtime image; expected java17, java21 or java25");
    }
  }

  /** A Kubernetes/Cloud Run name: lowercase, {@code [a-z0-9-]}, starts with a letter, 63 max. */
  static String dnsLabel(String raw) {
    String s = raw.toLowerCase(Locale.ROOT).replaceAll("\\.war$", "").replaceAll("[^a-z0-9-]", "-");
    s = s.replaceAll("-+", "-").replaceAll("^[^a-z]+", "").replaceAll("-+$", "");
    if (s.length() > 49) {
      s = s.substring(0, 49).replaceAll("-+$", "");
    }
    return s.isEmpty() ? "app" : s;
  }
}
