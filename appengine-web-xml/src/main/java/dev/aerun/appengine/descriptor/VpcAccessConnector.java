package dev.aerun.appengine.descriptor;

import java.util.Optional;

/**
 * {@code <vpc-access-connector>}.
 *
 * @param name the connector resource name, required
 * @param egressSetting {@code all-traffic} or {@code private-ip-ranges}, if given
 */
public record VpcAccessConnector(String name, Optional<String> egressSetting) {}
