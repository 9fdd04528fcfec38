package dev.aerun.appengine.descriptor;

import java.util.Optional;

/**
 * {@code <user-permissions><permission class name actions?>}.
 *
 * @param className the {@code java.security.Permission} class
 * @param name the permission name
 * @param actions the actions, if given
 */
public record Permission(String className, String name, Optional<String> actions) {}
