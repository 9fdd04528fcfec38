package dev.aerun.appengine.descriptor;

/**
 * {@code <manual-scaling>}.
 *
 * @param instances {@code instances}, required, positive
 */
public record ManualScaling(int instances) implements Scaling {}
