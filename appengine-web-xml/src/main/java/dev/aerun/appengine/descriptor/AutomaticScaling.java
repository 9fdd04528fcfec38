package dev.aerun.appengine.descriptor;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code <automatic-scaling>}. Idle-instance values are a non-negative integer or {@code
 * automatic}; pending latencies are {@code automatic} or a number with {@code ms} or {@code s}.
 *
 * @param minIdleInstances {@code min-idle-instances}
 * @param maxIdleInstances {@code max-idle-instances}
 * @param minPendingLatency {@code min-pending-latency}
 * @param maxPendingLatency {@code max-pending-latency}
 * @param maxConcurrentRequests {@code max-concurrent-requests}
 * @param minInstances {@code min-instances}
 * @param maxInstances {@code max-instances}
 * @param targetCpuUtilization {@code target-cpu-utilization}, in (0, 1]
 * @param targetThroughputUtilization {@code target-throughput-utilization}, in (0, 1]
 * @param minNumInstances {@code min-num-instances} (flex)
 * @param maxNumInstances {@code max-num-instances} (flex)
 * @param coolDownPeriodSec {@code cool-down-period-sec} (flex)
 * @param cpuUtilization {@code cpu-utilization} children ({@code target-utilization}, {@code
 *     aggregation-window-length-sec}) as text
 * @param targets the flex {@code target-*-per-sec} and {@code target-concurrent-requests} values
 * @param customMetrics each {@code custom-metrics/custom-metric} as child name to text
 */
public record AutomaticScaling(
    Optional<String> minIdleInstances,
    Optional<String> maxIdleInstances,
    Optional<String> minPendingLatency,
    Optional<String> maxPendingLatency,
    Optional<Integer> maxConcurrentRequests,
    Optional<Integer> minInstances,
    Optional<Integer> maxInstances,
    Optional<Double> targetCpuUtilization,
    Optional<Double> targetThroughputUtilization,
    Optional<Integer> minNumInstances,
    Optional<Integer> maxNumInstances,
    Optional<Integer> coolDownPeriodSec,
    Map<String, String> cpuUtilization,
    Map<String, Long> targets,
    List<Map<String, String>> customMetrics)
    implements Scaling {
  /** Copies collections into unmodifiable ones. */
  public AutomaticScaling {
    cpuUtilization = Collections.unmodifiableMap(new LinkedHashMap<>(cpuUtilization));
    targets = Collections.unmodifiableMap(new LinkedHashMap<>(targets));
    List<Map<String, String>> metrics = new ArrayList<>();
    for (Map<String, String> m : customMetrics) {
      metrics.add(Collections.unmodifiableMap(new LinkedHashMap<>(m)));
    }
    customMetrics = Collections.unmodifiableList(metrics);
  }
}
