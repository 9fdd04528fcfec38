package dev.aerun.appengine.descriptor;

import java.util.Optional;

/**
 * {@code <async-session-persistence enabled queue-name?>}; {@code enabled=false} when absent.
 *
 * @param enabled the {@code enabled} attribute
 * @param queueName the {@code queue-name} attribute
 */
public record AsyncSessionPersistence(boolean enabled, Optional<String> queueName) {}
