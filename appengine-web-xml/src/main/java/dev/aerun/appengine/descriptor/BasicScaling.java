package dev.aerun.appengine.descriptor;

import java.util.Optional;

/**
 * {@code <basic-scaling>}.
 *
 * @param maxInstances {@code max-instances}, required, positive
 * @param idleTimeoutSeconds {@code idle-timeout} (expiration syntax, e.g. {@code 10m})
 */
public record BasicScaling(int maxInstances, Optional<Long> idleTimeoutSeconds)
    implements Scaling {}
