package dev.aerun.appengine.descriptor;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads the scaling blocks: {@code <automatic-scaling>}, {@code <basic-scaling>}, {@code
 * <manual-scaling>}.
 */
final class ScalingReader extends ElementReader {
  /** The platform's maximum for {@code <max-concurrent-requests>}. */
  static final int MAX_CONCURRENT_REQUESTS = 1000;

  private static final Map<String, Kind> CPU_UTILIZATION =
      Map.of("target-utilization", Kind.DOUBLE, "aggregation-window-length-sec", Kind.POSITIVE_INT);
  private static final Map<String, Kind> CUSTOM_METRIC =
      Map.of(
          "metric-name", Kind.STRING,
          "target-type", Kind.STRING,
          "target-utilization", Kind.DOUBLE,
          "single-instance-assignment", Kind.DOUBLE,
          "filter", Kind.STRING);
  private static final Set<String> FLEX_TARGETS =
      Set.of(
          "target-network-sent-bytes-per-sec",
          "target-network-sent-packets-per-sec",
          "target-network-received-bytes-per-sec",
          "target-network-received-packets-per-sec",
          "target-disk-write-bytes-per-sec",
          "target-disk-write-ops-per-sec",
          "target-disk-read-bytes-per-sec",
          "target-disk-read-ops-per-sec",
          "target-request-count-per-sec",
          "target-concurrent-requests");

  ScalingReader(String file, List<String> warnings) {
    super(file, warnings);
  }

  /** Reads one scaling block, {@code n} being one of the three scaling elements. */
  Scaling read(XmlNode n) throws DescriptorException {
    return switch (n.name) {
      case "automatic-scaling" -> automaticScaling(n);
      case "basic-scaling" -> basicScaling(n);
      default -> manualScaling(n);
    };
  }

  private AutomaticScaling automaticScaling(XmlNode n) throws DescriptorException {
    Set<String> allowed = new HashSet<>(FLEX_TARGETS);
    allowed.addAll(
        List.of(
            "min-pending-latency",
            "max-pending-latency",
            "min-idle-instances",
            "max-idle-instances",
            "min-instances",
            "max-instances",
            "target-cpu-utilization",
            "target-throughput-utilization",
            "max-concurrent-requests",
            "min-num-instances",
            "max-num-instances",
            "cool-down-period-sec",
            "cpu-utilization",
            "custom-metrics"));
    Map<String, XmlNode> c = singles(n, allowed);
    Map<String, Long> targets = new LinkedHashMap<>();
    for (XmlNode t : n.children) {
      if (FLEX_TARGETS.contains(t.name)) {
        targets.put(t.name, (long) integer(t, 1));
      }
    }
    Map<String, String> cpu = new LinkedHashMap<>();
    if (c.containsKey("cpu-utilization")) {
      cpu.putAll(typedBlock(c.get("cpu-utilization"), CPU_UTILIZATION));
    }
    List<Map<String, String>> metrics = new ArrayList<>();
    if (c.containsKey("custom-metrics")) {
      for (XmlNode m : children(c.get("custom-metrics"), Set.of("custom-metric"))) {
        metrics.add(typedBlock(m, CUSTOM_METRIC));
      }
    }
    return new AutomaticScaling(
        automaticOr(c.get("min-idle-instances"), (node, v) -> integer(node, 0)),
        automaticOr(c.get("max-idle-instances"), (node, v) -> integer(node, 0)),
        automaticOr(c.get("min-pending-latency"), this::durationMillis),
        automaticOr(c.get("max-pending-latency"), this::durationMillis),
        maxConcurrentRequests(c.get("max-concurrent-requests")),
        optInt(c.get("min-instances"), 0),
        optInt(c.get("max-instances"), 1),
        utilization(c.get("target-cpu-utilization")),
        utilization(c.get("target-throughput-utilization")),
        optInt(c.get("min-num-instances"), 1),
        optInt(c.get("max-num-instances"), 1),
        optInt(c.get("cool-down-period-sec"), 1),
        cpu,
        targets,
        metrics);
  }

  private BasicScaling basicScaling(XmlNode n) throws DescriptorException {
    Map<String, XmlNode> c = singles(n, Set.of("max-instances", "idle-timeout"));
    if (!c.containsKey("max-instances")) {
      throw fail(n, "missing required child <max-instances>");
    }
    Optional<Long> idle = Optional.empty();
    if (c.containsKey("idle-timeout")) {
      XmlNode t = c.get("idle-timeout");
      String v = string(t);
      if (!unresolvedPlaceholder(t, v)) {
        idle = Optional.of(Math.round(durationMillis(t, v) / 1000.0));
      }
    }
    return new BasicScaling(stringTypedInt(c.get("max-instances"), 1), idle);
  }

  private ManualScaling manualScaling(XmlNode n) throws DescriptorException {
    Map<String, XmlNode> c = singles(n, Set.of("instances"));
    if (!c.containsKey("instances")) {
      throw fail(n, "missing required child <instances>");
    }
    return new ManualScaling(stringTypedInt(c.get("instances"), 1));
  }

  private Optional<Double> utilization(XmlNode n) throws DescriptorException {
    if (n == null) {
      return Optional.empty();
    }
    // The platform types these as xs:double and takes any number; only (0, 1] means something.
    double d = parseDouble(n, string(n), "value");
    if (d <= 0 || d > 1) {
      warn(n, "value " + d + " is outside (0, 1]; <" + n.name + "> is ignored");
      return Optional.empty();
    }
    return Optional.of(d);
  }

  /**
   * An idle-instance count or a pending latency: {@code automatic}, or a value {@code check}
   * accepts (a non-negative integer, a duration). A placeholder left in means the default.
   */
  private Optional<String> automaticOr(XmlNode n, ValueCheck check) throws DescriptorException {
    if (n == null) {
      return Optional.empty();
    }
    String v = string(n);
    if (unresolvedPlaceholder(n, v)) {
      return Optional.empty();
    }
    if (!v.equals("automatic")) {
      check.accept(n, v);
    }
    return Optional.of(v);
  }

  /** Fails with a {@link DescriptorException} if {@code value} of {@code n} is not acceptable. */
  private interface ValueCheck {
    void accept(XmlNode n, String value) throws DescriptorException;
  }

  /**
   * {@code <max-concurrent-requests>}: a string in the platform's schema, so a placeholder means
   * the default; a number from 1 to {@value #MAX_CONCURRENT_REQUESTS}, the platform's maximum (more
   * would ask this runtime for a thread pool no JVM can have).
   */
  private Optional<Integer> maxConcurrentRequests(XmlNode n) throws DescriptorException {
    if (n == null || unresolvedPlaceholder(n, string(n))) {
      return Optional.empty();
    }
    int v = integer(n, 1);
    if (v > MAX_CONCURRENT_REQUESTS) {
      throw fail(
          n,
          "value "
              + v
              + " is more than "
              + MAX_CONCURRENT_REQUESTS
              + ", the most requests one instance may take at once");
    }
    return Optional.of(v);
  }

  /** A count the platform types as a string: a placeholder means {@code fallback}. */
  private int stringTypedInt(XmlNode n, int fallback) throws DescriptorException {
    return unresolvedPlaceholder(n, string(n)) ? fallback : integer(n, 1);
  }

  private long durationMillis(XmlNode n, String v) throws DescriptorException {
    try {
      return Expiration.parseDurationMillis(v);
    } catch (IllegalArgumentException e) {
      throw fail(n, e.getMessage());
    }
  }
}
