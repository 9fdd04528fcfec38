package dev.aerun.appengine.descriptor;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code <network>} (flex).
 *
 * @param forwardedPorts the {@code forwarded-port} values
 * @param settings the other children ({@code instance-tag}, {@code name}, {@code subnetwork-name},
 *     {@code session-affinity}) as text
 */
public record Network(List<String> forwardedPorts, Map<String, String> settings) {
  /** Copies the collections. */
  public Network {
    forwardedPorts = List.copyOf(forwardedPorts);
    settings = Collections.unmodifiableMap(new LinkedHashMap<>(settings));
  }
}
