package dev.aerun.appengine.descriptor;

import java.util.Optional;

/**
 * {@code <class-loader-config><priority-specifier filename priority?>}.
 *
 * @param filename the jar file name
 * @param priority the priority, if given
 */
public record PrioritySpecifier(String filename, Optional<Double> priority) {}
